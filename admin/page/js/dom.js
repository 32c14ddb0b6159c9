// Small DOM helpers. Text always goes in as text nodes, never as HTML: what upstreams and agents
// send (tool descriptions, arguments, errors) is untrusted.

/** h('button', {type: 'button', onclick}, 'text', child, …) — attributes, `on*` handlers, children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name in el && typeof value !== 'string') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  // A <pre> may scroll: keyboard users must be able to reach it to scroll it.
  if (tag === 'pre' && !el.hasAttribute('tabindex')) el.tabIndex = 0;
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function render(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** An SVG element (attributes only; text via children). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) el.setAttribute(name, String(value));
  append(el, children);
  return el;
}

/**
 * A state badge: the words carry the state (never colour alone); the class only adds colour.
 * `tone`: ok | warn | bad | idle.
 */
export function badge(label, text, tone = 'idle') {
  return h('span', { class: `badge ${tone}`, title: label }, h('span', { class: 'visually-hidden' }, `${label}: `), text);
}

let uid = 0;
/** A unique id for label/aria wiring. */
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** A labelled input (or select/textarea passed as `control`). */
export function field(labelText, control, hint) {
  const id = control.id || nextId('f');
  control.id = id;
  const hintEl = hint ? h('span', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, labelText), control, hintEl);
}

/** Pretty JSON for <pre> blocks. */
export function json(value) {
  return JSON.stringify(value, null, 2);
}

/** A readable time from an ISO timestamp. */
export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/**
 * Runs work one at a time per key: a call for a key whose work still runs (a double click, or a
 * click on the same button drawn again meanwhile) does nothing. Buttons stay enabled, since a
 * disabled button drops keyboard focus; callers say what is busy.
 */
export function oneAtATime() {
  const running = new Set();
  return async (key, work) => {
    if (running.has(key)) return;
    running.add(key);
    try {
      await work();
    } finally {
      running.delete(key);
    }
  };
}

/** A form's submit handler that runs `work` one submit at a time, the form marked busy meanwhile. */
export function submitOnce(form, work) {
  const once = oneAtATime();
  return (event) => {
    event.preventDefault();
    return once(form, async () => {
      form.setAttribute('aria-busy', 'true');
      try {
        await work(event);
      } finally {
        form.removeAttribute('aria-busy');
      }
    });
  };
}
