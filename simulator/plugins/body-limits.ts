// Depth and size limits on request bodies (security.md S25), checked before any handler runs: a
// JSON body nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed, and a JSON or text
// body over the route's body limit is a 413 naming that limit, also when it arrives chunked.
// Other content types (multipart uploads) keep the limits their own parsers set. After schema
// validation, a number that is not finite anywhere in the body, query or path (1e309, or the
// string "Infinity" coerced for an integer field, which Ajv's integer check lets through) is a
// 400 naming the field, so no handler ever stores one (S8, S23).
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError, type ApiError } from './errors.ts';
import { jsonDeeperThan, MAX_JSON_DEPTH, nonFinitePath } from '../lib/json.ts';

export { MAX_JSON_DEPTH };

/** Fastify's default body limit, which applies unless a route sets its own `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

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

  app.addHook('preHandler', async (request) => {
    for (const [part, value] of [['body', request.body], ['querystring', request.query], ['params', request.params]] as const) {
      const at = nonFinitePath(value);
      if (at !== null) throw apiError(400, 'BAD_REQUEST', `${part}${at ? `/${at.replaceAll('.', '/')}` : ''} must be a finite number`);
    }
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
