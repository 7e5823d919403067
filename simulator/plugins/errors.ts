// Turns every failure into the EMQX error body `{code, message}` (emqx-api-part1 §2.1): schema
// and JSON errors become 400 BAD_REQUEST, unknown paths 404, anything unexpected a generic 500.
// It never puts a stack trace, a file path or a request body into a response (security.md S17).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An error a handler or the store throws on purpose; the error handler sends it as it is. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  /** Sent as `message` instead of the text where the broker answers a structure (BAD_MFA_TOKEN). */
  readonly detail: unknown;

  constructor(statusCode: number, code: string, message: string, headers: Record<string, string> = {}, detail?: unknown) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.headers = headers;
    this.detail = detail;
  }
}

/** Shorthand for `new ApiError(...)` so handlers read as one line. */
export function apiError(statusCode: number, code: string, message: string, headers?: Record<string, string>, detail?: unknown): ApiError {
  return new ApiError(statusCode, code, message, headers, detail);
}

/** The message hocon gives for a field a schema does not know, as EMQX puts it in a 400 body. */
export function unknownFieldMessage(field: string, path = 'root'): string {
  return JSON.stringify({ kind: 'validation_error', path, reason: 'unknown_fields', unknown: field });
}

/** True for paths of the management API (everything under /api/v5). */
export function isApiPath(url: string): boolean {
  return url === '/api/v5' || url.startsWith('/api/v5/') || url.startsWith('/api/v5?');
}

// Fastify's own client errors and the EMQX code each one maps to.
const FASTIFY_CODES: Record<string, { code: string; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', message: 'Invalid json message received' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'BAD_REQUEST', message: 'Invalid json message received' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported media type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: 'Invalid content length' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
};

// Generic codes by status for any other client error Fastify raises.
const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

function handleError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ApiError) {
    reply.code(error.statusCode).headers(error.headers).send({ code: error.code, message: error.detail ?? error.message });
    return;
  }
  // Schema validation: Fastify's message already names the part and field, e.g.
  // "body/username must NOT have more than 100 characters"; it never echoes the value.
  if ((error as FastifyError).validation) {
    const unknown = (error as FastifyError).validation?.find((v) => v.keyword === 'additionalProperties');
    const field = unknown?.params?.additionalProperty;
    const message = typeof field === 'string' ? unknownFieldMessage(field, unknown?.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'root') : error.message;
    reply.code(400).send({ code: 'BAD_REQUEST', message });
    return;
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const known = FASTIFY_CODES[(error as FastifyError).code ?? ''];
    reply.code(status).send({
      code: known?.code ?? STATUS_CODES[status] ?? 'BAD_REQUEST',
      message: known?.message ?? error.message,
    });
    return;
  }
  // A crash: log it on the server, answer with nothing the client could learn from (S17).
  request.log.error({ err: error, url: request.routeOptions.url }, 'request failed');
  reply.code(500).send({ code: 'INTERNAL_ERROR', message: 'Internal error' });
}

function handleNotFound(request: FastifyRequest, reply: FastifyReply, methodsOf: (path: string) => string[]): void {
  // A known path with another method: 405, an empty body and the methods it has (minirest).
  const allowed = isApiPath(request.url) ? methodsOf(request.url) : [];
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    reply.code(405).header('allow', allowed.join(', ')).send();
    return;
  }
  // EMQX answers other paths by the Accept header (emqx_dashboard_not_found.erl, v5.5.1 and
  // v5.8.9): JSON when it starts with application/json, text with text/plain, HTML otherwise or
  // without one. API paths answer JSON here whatever the Accept header.
  const accept = String(request.headers.accept ?? '');
  if (isApiPath(request.url) || accept.startsWith('application/json')) {
    reply.code(404).send({ code: 'NOT_FOUND', message: 'Request Path Not Found' });
    return;
  }
  if (accept.startsWith('text/plain')) {
    reply.code(404).type('text/plain; charset=utf-8').send('404 - NOT FOUND');
    return;
  }
  reply.code(404).type('text/html; charset=utf-8').send('<html><head><title>404 - NOT FOUND</title></head><body><h1>404 - NOT FOUND</h1></body></html>');
}

/** Installs the error and not-found handlers on the root instance. */
export function errorsPlugin(app: FastifyInstance, methodsOf: (path: string) => string[] = () => []): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => handleNotFound(request, reply, methodsOf));
}
