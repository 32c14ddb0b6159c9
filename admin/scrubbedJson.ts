import type { RequestHandler } from 'express';
import type { SecretScrubber } from '../gateway/index.js';

/**
 * Scrubs every JSON body a router answers with, error bodies included: these routes quote what
 * upstream servers said (discovery and connection-test messages, Inspector results), and an
 * upstream may echo back the credentials it was sent.
 */
export function scrubbedJson(secrets: SecretScrubber): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => json(secrets.scrubValue(body));
    next();
  };
}
