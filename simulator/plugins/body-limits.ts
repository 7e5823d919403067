// Depth and size limits on request bodies (security.md S25), checked before any handler runs: a
// JSON body nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed, and a JSON or text
// body over the route's body limit is a 413 naming that limit, also when it arrives chunked.
// Other content types (multipart uploads) keep the limits their own parsers set.
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError, type ApiError } from './errors.ts';

/** Deepest nesting of JSON objects and arrays a body may have (EMQX bodies need about ten). */
export const MAX_JSON_DEPTH = 64;

/** Fastify's default body limit, which applies unless a route sets its own `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * True when JSON text nests objects and arrays deeper than `max`, found in one pass without
 * recursion and without parsing; brackets inside strings do not count.
 * Example: `jsonDeeperThan('[[1]]', 1) === true`.
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: up to the next quote not escaped by a backslash.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) {
      depth--;
    }
  }
  return false;
}

function tooLarge(limit: number): ApiError {
  return apiError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`);
}

/** Only the parsers without a limit of their own (JSON, text) follow the route's body limit. */
function isLimitedType(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('application/json') || type.startsWith('text/plain');
}

/** Passes the body on until more than `limit` bytes went through, then fails with a 413. */
function capped(source: Readable, limit: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(tooLarge(limit));
      else callback(null, chunk);
    },
  });
  source.on('error', (err) => counter.destroy(err));
  return source.pipe(counter);
}

/** Replaces the JSON parser with one that checks depth first, and caps JSON and text bodies. */
export function bodyLimitsPlugin(app: FastifyInstance): void {
  // Fastify's own parser afterwards, so `__proto__` and `constructor.prototype` keys stay refused.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // An empty body is no body on a route (minirest reads none when cowboy_req:has_body/1 is
    // false); unknown paths keep refusing it as before.
    if (body === '' && request.routeOptions.url !== undefined) {
      done(null, undefined);
      return;
    }
    if (jsonDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(apiError(400, 'BAD_REQUEST', `JSON nesting deeper than ${MAX_JSON_DEPTH}`), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });

  app.addHook('preParsing', async (request, reply, payload) => {
    if (!isLimitedType(request)) return payload;
    const limit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const declared = Number(request.headers['content-length']);
    if (declared > limit) {
      // The client sends the rest anyway: close the connection after the answer.
      reply.header('connection', 'close');
      throw tooLarge(limit);
    }
    // With a content-length, Fastify holds the body to it; without one, count as it arrives.
    return Number.isNaN(declared) ? capped(payload, limit) : payload;
  });
}
