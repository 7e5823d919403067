// Response headers promised in security.md S14–S16: a strict CSP and COOP on HTML, nosniff and
// no-referrer everywhere, no caching of API answers, and never any CORS header.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from './errors.ts';

// S14: 'unsafe-inline' styles only, because the chart library injects a <style> element;
// data: images only, because Pico draws its checkbox, select and chevron marks as data-URI SVGs.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; " +
  "base-uri 'none'; frame-ancestors 'none'; connect-src 'self' ws: wss:";

// S16: CORS is off; even if some plugin added these, they are removed before sending.
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
];

function isNoStorePath(url: string): boolean {
  return isApiPath(url) || url === '/status' || url.startsWith('/status?');
}

function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html')) {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('cross-origin-opener-policy', 'same-origin');
  }
  // S15: API answers carry session-specific data and must never be cached.
  if (isNoStorePath(request.url) || type.startsWith('application/json')) {
    reply.header('cache-control', 'no-store');
  }
  for (const name of CORS_HEADERS) reply.removeHeader(name);
  done(null, payload);
}

/** Adds the security headers to every response, errors and 404s included. */
export function securityPlugin(app: FastifyInstance): void {
  app.addHook('onSend', setSecurityHeaders);
}
