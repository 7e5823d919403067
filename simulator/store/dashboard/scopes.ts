// API scopes (EMQX 5.9 on): the catalogue (emqx_scope_catalog.erl, emqx_api_key_scopes.hrl at
// e5.10.4 and 6.2.2), which scope each route belongs to (every minirest module's scopes/0, read
// from fixtures/scopes/<version>.json through the route's module in the release's endpoint
// index), and the checks the broker makes of a scope list: for API keys in
// emqx_mgmt_api_api_keys.erl validate_scopes/2, for dashboard users in emqx_dashboard_api.erl
// validate_login_user_scopes/2. Whether a caller may reach a route is decided in plugins/auth.ts.
import { readFileSync } from 'node:fs';
import { routeKey, type EmqxVersion, type Profile } from '../profile.ts';

/** The scopes both API keys and dashboard users may hold, in the catalogue's order. */
export const GENERIC_SCOPES = [
  'connections', 'publish', 'data_integration', 'access_control', 'gateways', 'monitoring', 'cluster_operations', 'system', 'audit', 'license',
] as const;
/** Scopes only dashboard users may hold (?LOGIN_ONLY_SCOPES). */
export const LOGIN_ONLY_SCOPES = ['user_management', 'mfa_management', 'sso_management', 'api_key_management'] as const;
/** Login-only scopes that need role administrator (?ADMIN_ONLY_SCOPES: all but mfa_management). */
export const ADMIN_ONLY_SCOPES: readonly string[] = ['user_management', 'sso_management', 'api_key_management'];
/** Paths no API key may reach, whatever its scopes (?SCOPE_DENIED). */
export const DENIED = '$denied';
/** Paths that are deliberately outside every scope (?SCOPE_PUBLIC): not in the path map. */
const PUBLIC = '$public';

// What each scope covers, in this project's words (GET /api_key_scopes, /user_scopes).
const DESCRIPTIONS: Record<string, string> = {
  connections: 'Clients, sessions, subscriptions, topics, retained and delayed messages, banned clients, rewrite and auto-subscribe rules',
  publish: 'Publishing messages through the API',
  data_integration: 'Rules, connectors, actions, sources, schemas and ExHook',
  access_control: 'Authentication and authorization',
  gateways: 'Gateways, their listeners, clients and authentication',
  monitoring: 'Metrics, statistics, alarms, traces and the dashboard time series',
  cluster_operations: 'Nodes, the cluster, linking, rebalancing and node eviction',
  system: 'Configuration, listeners, plugins, backups and status',
  audit: 'The audit log',
  license: 'The license',
  user_management: 'Dashboard users',
  mfa_management: 'Multi-factor authentication of dashboard users',
  sso_management: 'Single sign-on settings',
  api_key_management: 'API keys',
};

export interface ScopeInfo {
  name: string;
  desc: string;
}

/** GET /api_key_scopes: the scopes an API key may hold (emqx_scope_catalog:scope_catalog/0). */
export function apiKeyCatalog(): ScopeInfo[] {
  return GENERIC_SCOPES.map((name) => ({ name, desc: DESCRIPTIONS[name] }));
}

/** GET /user_scopes: every scope a dashboard user may hold, with `admin_only` (login_user_scope_catalog/0). */
export function userCatalog(): (ScopeInfo & { admin_only: boolean })[] {
  return [
    ...GENERIC_SCOPES.map((name) => ({ name, desc: DESCRIPTIONS[name], admin_only: false })),
    ...LOGIN_ONLY_SCOPES.map((name) => ({ name, desc: DESCRIPTIONS[name], admin_only: ADMIN_ONLY_SCOPES.includes(name) })),
  ];
}

/** emqx_mgmt_auth.erl role_default_scopes/1: a publisher key publishes; any other key gets every generic scope. */
export function apiKeyDefaultScopes(role: string): string[] {
  return role === 'publisher' ? ['publish'] : [...GENERIC_SCOPES];
}

/** emqx_dashboard_admin.erl role_default_scopes/1: an administrator holds every scope, a viewer the generic ones. */
export function userDefaultScopes(role: string): string[] {
  return role === 'administrator' ? [...GENERIC_SCOPES, ...LOGIN_ONLY_SCOPES] : [...GENERIC_SCOPES];
}

/** The reason a key's scope list is refused (emqx_mgmt_api_api_keys.erl validate_scopes/2), or null. */
export function apiKeyScopesProblem(role: string, scopes: readonly string[]): string | null {
  if (role === 'publisher' && !(scopes.length === 0 || (scopes.length === 1 && scopes[0] === 'publish'))) {
    return 'Publisher API keys can only hold the \'publish\' scope';
  }
  const loginOnly = scopes.filter((s) => (LOGIN_ONLY_SCOPES as readonly string[]).includes(s));
  if (loginOnly.length > 0) return `API keys cannot hold login-only scopes: ${loginOnly.join(', ')}`;
  const unknown = scopes.filter((s) => !(GENERIC_SCOPES as readonly string[]).includes(s));
  return unknown.length > 0 ? `Unknown scopes: ${unknown.join(', ')}` : null;
}

/** The reason a dashboard user's scope list is refused (validate_login_user_scopes/2), or null. */
export function userScopesProblem(role: string, scopes: readonly string[]): string | null {
  const known: readonly string[] = [...GENERIC_SCOPES, ...LOGIN_ONLY_SCOPES];
  const unknown = scopes.filter((s) => !known.includes(s));
  if (unknown.length > 0) return `Unknown scope name(s): ${unknown.join(', ')}`;
  const adminOnly = scopes.filter((s) => ADMIN_ONLY_SCOPES.includes(s));
  return role !== 'administrator' && adminOnly.length > 0 ? `Non-administrator users cannot hold admin-only scopes: ${adminOnly.join(', ')}` : null;
}

type ModuleScopes = Record<string, string | Record<string, string>>;
const modulesByRelease = new Map<EmqxVersion, ModuleScopes>();

function moduleScopes(version: EmqxVersion): ModuleScopes {
  let modules = modulesByRelease.get(version);
  if (!modules) {
    try {
      modules = (JSON.parse(readFileSync(new URL(`../../../fixtures/scopes/${version}.json`, import.meta.url), 'utf8')) as { modules: ModuleScopes }).modules;
    } catch {
      // Releases before scopes have no file.
      modules = {};
    }
    modulesByRelease.set(version, modules);
  }
  return modules;
}

// Routes the simulator serves that the endpoint index lists without their module (the generic
// config roots, paths built by a function), by the module that serves them at the tags.
const UNINDEXED: readonly (readonly [RegExp, string])[] = [
  [/^\/configs\//, 'emqx_mgmt_api_configs'],
  [/^\/clients\/\{\}\/(mqueue|inflight)_messages$/, 'emqx_mgmt_api_clients'],
  [/^\/gateways\/lwm2m\//, 'emqx_lwm2m_api'],
  [/^\/prometheus\//, 'emqx_prometheus_api'],
];

/**
 * The scope of `method url` (url as Fastify registers it, relative to /api/v5) in this release:
 * a scope name, `$denied`, or null for a path no scope covers (public, or unmapped: the broker
 * lets those through, emqx_mgmt_auth.erl check_path_in_scopes/2).
 */
export function scopeOf(profile: Profile, method: string, url: string): string | null {
  const key = routeKey(method, url);
  const path = key.slice(key.indexOf(' ') + 1);
  const indexed = profile.routes().get(key)?.module;
  const module = indexed && indexed !== 'source' ? indexed : UNINDEXED.find(([pattern]) => pattern.test(path))?.[1];
  const declared = module ? moduleScopes(profile.version)[module] : undefined;
  if (declared === undefined) return null;
  if (typeof declared === 'string') return declared === PUBLIC ? null : declared;
  const entry = Object.entries(declared).find(([template]) => routeKey(method, template) === key);
  return entry && entry[1] !== PUBLIC ? entry[1] : null;
}
