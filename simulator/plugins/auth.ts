// The authentication hook for /api/v5 (emqx_dashboard:authorize/2, emqx-api-part1 §1.2):
// Bearer tokens of dashboard users, Basic `key:secret` API keys. Every route is protected unless
// it declares `config: { public: true }`, so a new route cannot forget the guard (security.md S7).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/index.ts';
import { apiError } from './errors.ts';

/** Who made a request: a dashboard user (Bearer token) or an API key (Basic). */
export interface Principal {
  kind: 'user' | 'api_key';
  name: string;
  /** The Bearer token, for logout. */
  token?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no credentials (login, status). */
    public?: boolean;
    /** A POST/PUT operation that takes no body; the input fuzz test then expects no body schema. */
    noBody?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const BASIC_CHALLENGE = { 'www-authenticate': 'Basic Realm="emqx-dashboard"' };

// EMQX refuses API keys on these paths: only a logged-in person may manage people and keys.
function isApiKeyForbidden(routeUrl: string): boolean {
  return (
    routeUrl === '/api/v5/users' || routeUrl.startsWith('/api/v5/users/') ||
    routeUrl === '/api/v5/logout' ||
    routeUrl === '/api/v5/api_key' || routeUrl.startsWith('/api/v5/api_key/')
  );
}

function bearer(store: Store, token: string): Principal {
  const result = store.tokens.check(token);
  if (result.status === 'expired') throw apiError(401, 'TOKEN_TIME_OUT', 'Token expired, get new token by POST /login');
  if (result.status === 'unknown') throw apiError(401, 'BAD_TOKEN', 'Get a token by POST /login');
  return { kind: 'user', name: result.username, token };
}

function basic(store: Store, request: FastifyRequest, encoded: string): Principal {
  // The path is checked before the credentials, as EMQX does.
  if (isApiKeyForbidden(request.routeOptions.url ?? '')) {
    throw apiError(401, 'API_KEY_NOT_ALLOW',
      'Please use bearer Token instead, using API key/secret in users|logout|api_key path is not permitted', BASIC_CHALLENGE);
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const name = colon > 0 ? store.apiKeys.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1)) : null;
  if (!name) throw apiError(401, 'BAD_API_KEY_OR_SECRET', 'Check api_key/api_secret', BASIC_CHALLENGE);
  return { kind: 'api_key', name };
}

/** Adds the onRequest hook that authenticates every non-public route of the instance. */
export function authPlugin(app: FastifyInstance, store: Store): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    const header = request.headers.authorization ?? '';
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const value = header.slice(space + 1).trim();
    if (space > 0 && value && scheme === 'bearer') request.principal = bearer(store, value);
    else if (space > 0 && value && scheme === 'basic') request.principal = basic(store, request, value);
    else throw apiError(401, 'AUTHORIZATION_HEADER_ERROR', 'Support authorization: basic/bearer ', BASIC_CHALLENGE);
  });
}
