// The authentication hook for /api/v5 (emqx_dashboard:authorize/2, emqx-api-part1 §1.2):
// Bearer tokens of dashboard users, Basic `key:secret` API keys. Every route is protected unless
// it declares `config: { public: true }`, so a new route cannot forget the guard (security.md S7).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/index.ts';
import type { ApiKeyRole } from '../store/state.ts';
import { apiError } from './errors.ts';

/** Who made a request: a dashboard user (Bearer token) or an API key (Basic). */
export interface Principal {
  kind: 'user' | 'api_key';
  name: string;
  /** The Bearer token, for logout. */
  token?: string;
  /** RBAC role (Enterprise: emqx_dashboard_rbac); administrator where RBAC is not built in. */
  role: ApiKeyRole;
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

// http_api.hrl ?API_KEY_NOT_ALLOW_MSG, what a key whose role does not allow the call gets.
const API_KEY_ROLE_MESSAGE = 'This API Key don\'t have permission to access this resource';

/** The request path below /api/v5, without the query, as emqx_dashboard_swagger:get_relative_uri. */
function apiPath(url: string): string {
  const path = url.split('?')[0];
  return path.startsWith('/api/v5') ? path.slice('/api/v5'.length) : path;
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
  return { kind: 'user', name: result.username, token, role: store.users.role(result.username) ?? 'administrator' };
}

function basic(store: Store, request: FastifyRequest, encoded: string): Principal {
  // The path is checked before the credentials, as EMQX does.
  if (isApiKeyForbidden(request.routeOptions.url ?? '')) {
    throw apiError(401, 'API_KEY_NOT_ALLOW',
      'Please use bearer Token instead, using API key/secret in users|logout|api_key path is not permitted', BASIC_CHALLENGE);
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const key = colon > 0 ? store.apiKeys.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1)) : null;
  if (!key) throw apiError(401, 'BAD_API_KEY_OR_SECRET', 'Check api_key/api_secret', BASIC_CHALLENGE);
  return { kind: 'api_key', name: key.name, role: key.role };
}

/**
 * Reads the simulator withholds from every role but administrator, although the broker's RBAC
 * lets a viewer GET anything (emqx_dashboard_rbac.erl check_rbac/4 at e5.5.1 and e5.8.9): a
 * backup file holds the secrets every GET answer masks (connector passwords, private keys) and
 * the password and API secret hashes (security.md S19, S27). The listing stays readable.
 */
const ADMINISTRATOR_READS: ReadonlySet<string> = new Set(['/api/v5/data/files/:filename']);

/**
 * emqx_dashboard_rbac.erl check_rbac/4: an administrator may do anything; a viewer may read
 * (except ADMINISTRATOR_READS, by route), log out and change its own password; a publisher key
 * may only publish.
 */
export function roleAllows(role: ApiKeyRole, method: string, path: string, username: string, route = ''): boolean {
  if (role === 'administrator') return true;
  if (role === 'publisher') return method === 'POST' && (path === '/publish' || path === '/publish/bulk');
  if (method === 'GET') return !ADMINISTRATOR_READS.has(route);
  if (method === 'POST' && path === '/logout') return true;
  return method === 'POST' && path === `/users/${encodeURIComponent(username)}/change_pwd`;
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
    const principal = request.principal;
    // Without RBAC (Community) everyone is an administrator, except a role stored by Enterprise
    // in the same data directory: a change of edition never raises a role (security.md S28).
    const checked = store.profile.hasApp('emqx_dashboard_rbac') || principal.role !== 'administrator';
    if (checked && !roleAllows(principal.role, request.method, apiPath(request.url), principal.name, request.routeOptions.url)) {
      throw apiError(403, 'UNAUTHORIZED_ROLE', principal.kind === 'user' ? 'You don\'t have permission to access this resource' : API_KEY_ROLE_MESSAGE);
    }
  });
}
