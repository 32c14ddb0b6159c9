import type { RequestHandler } from 'express';
import type { SecretScrubber } from '../gateway/index.js';

/**
 * Scrubs every JSON body a router answers with, error bodies included: these routes quote what
 * upstream servers said (discovery and connection-test messages, Inspector results), and an
 * upstream may echo back the credentials it was sent. `restore` puts back what the gateway itself
 * wrote and no upstream can have said (its states and ids): a configured value that happens to be
 * one of those words (`FLAG=disabled`) must not blank them out.
 */
export function scrubbedJson(secrets: SecretScrubber, restore?: (scrubbed: any, original: any) => void): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const scrubbed = secrets.scrubValue(body);
      if (restore && scrubbed !== body && typeof body === 'object' && body !== null) restore(scrubbed, body);
      return json(scrubbed);
    };
    next();
  };
}
