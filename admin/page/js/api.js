// The page's only way out: the admin API on this origin, with the token as a bearer header.
const TOKEN_KEY = 'scigate.adminToken';

/** The pasted token lives in this tab's sessionStorage only: never in the URL, never in localStorage. */
export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** An admin API refusal: `{error: {code, message, details}}` with its HTTP status. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * One JSON request to /api; throws ApiError for a 4xx/5xx, with the gateway's own message, and
 * for a request or answer that did not complete: code 'cancelled' (aborted) or 'unreachable'.
 * `options.jsonText` sends JSON text as the user wrote it instead of `body` re-serialized.
 */
export async function api(method, path, body, options = {}) {
  const headers = { authorization: `Bearer ${token.get() ?? ''}`, accept: 'application/json' };
  const sent = options.jsonText ?? (body === undefined ? undefined : JSON.stringify(body));
  if (sent !== undefined) headers['content-type'] = 'application/json';
  let response;
  let text;
  try {
    response = await fetch(path, { method, headers, cache: 'no-store', signal: options.signal, body: sent });
    // Inside the try: after the headers the body can still fail (a dropped connection, a Cancel
    // mid-answer), and callers must see the same ApiError as for a fetch that failed outright.
    text = await response.text();
  } catch (error) {
    // The signal, not the error's shape: abort(reason) rejects with the reason itself.
    if (options.signal?.aborted || error?.name === 'AbortError') throw new ApiError(0, 'cancelled', 'The request was cancelled.');
    throw new ApiError(0, 'unreachable', 'The gateway did not answer; check that it is still running, then retry.');
  }
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json?.error;
    throw new ApiError(response.status, error?.code ?? `http_${response.status}`, error?.message ?? `The gateway answered HTTP ${response.status}.`, error?.details);
  }
  return json;
}

/**
 * Whether a route exists on this gateway (panels whose API lands later appear only then): the
 * gateway answers an unknown route with 404 "No route …"; a known route answers anything else.
 */
export async function routeExists(path) {
  try {
    await api('GET', path);
    return true;
  } catch (error) {
    return !(error instanceof ApiError && error.status === 404 && /^No route /.test(error.message));
  }
}

/**
 * Live updates from GET /api/events. EventSource cannot send a bearer header, so the stream is
 * read with fetch; it reconnects after a pause, and `onState('live')` after every (re)connect lets
 * the panels reload what they may have missed.
 */
export function openEvents({ onEvent, onState }) {
  let stopped = false;
  let controller = null;
  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await fetch('/api/events', {
          headers: { authorization: `Bearer ${token.get() ?? ''}`, accept: 'text/event-stream' },
          cache: 'no-store', signal: controller.signal,
        });
        if (response.status === 401) {
          onState('unauthorized');
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        onState('live');
        await readEvents(response.body, onEvent);
      } catch {
        // Dropped or refused: retried below unless stopped.
      }
      if (stopped) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}

async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseEventBlock(block);
      if (event) deliver(event, onEvent);
    }
  }
}

/**
 * One event to the page's handler. A handler that throws (a panel bug, data it did not expect) is
 * that event's problem: caught with the stream's failures, it would look like a dropped stream,
 * lose the events after it and reconnect in a loop with nothing said.
 */
function deliver(event, onEvent) {
  try {
    onEvent(event);
  } catch (error) {
    console.error(`The page could not show the live update "${event.type}"; later updates still arrive. Reload the page if what it shows looks out of date.`, error);
  }
}

function parseEventBlock(block) {
  let type = null;
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trimStart();
  }
  if (!type) return null;
  try {
    const payload = JSON.parse(data || '{}');
    return { type, sessionId: payload.sessionId ?? null, data: payload.data };
  } catch {
    return null;
  }
}
