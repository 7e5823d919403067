// The `ns` query parameter of 6.x (profile feature `namespaces`) on the rule, connector, action,
// source and built-in database user routes. emqx_rule_engine_api.erl, emqx_connector_api.erl, emqx_bridge_v2_api.erl and
// emqx_authn_api.erl at 6.2.2 run the same minirest filter before each handler: parse_namespace/1 takes `ns` from the
// query string (the global config without it), and validate_managed_namespace/2 answers
// 400 BAD_REQUEST "Managed namespace not found" for a name the managed namespace table lacks
// (emqx_mt_hookcb.erl on_namespace_resource_pre_create/2), on reads and writes alike. Releases
// before 6.0 do not declare `ns`; an undeclared query parameter is ignored there
// (emqx_dashboard_swagger.erl check_parameters/4 only reads the declared ones), so it is here too.
// The simulator's users are all global: the 403 for a namespaced dashboard user asking for
// another namespace has no user to come from.
import type { FastifyRequest } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import type { Store } from '../store/index.ts';
import type { NamespaceScope } from '../store/namespaces.ts';

type NamespaceQuery = { ns?: unknown; only_global?: unknown } | undefined;

/**
 * The namespace a request names, or null for the global config. `orphans`: a DELETE may name a
 * namespace that is gone (emqx_authn_api.erl validate_managed_namespace/2 at 6.2.2 skips the
 * check for a global administrator's deletes, to clean up what a deleted namespace left).
 */
export function namespaceOf(store: Store, request: FastifyRequest, orphans = false): string | null {
  const ns = (request.query as NamespaceQuery)?.ns;
  if (ns === undefined || !store.profile.feature('namespaces')) return null;
  const name = String(ns);
  if (!store.namespaces.has(name) && !(orphans && request.method === 'DELETE')) throw apiError(400, 'BAD_REQUEST', 'Managed namespace not found');
  return name;
}

/** The objects of the namespace a request names. */
export const scopeOf = (store: Store, request: FastifyRequest): NamespaceScope => store.namespaces.scope(namespaceOf(store, request));

/**
 * The namespaces a list shows: the one named; without `ns`, every namespace's objects beside the
 * global ones unless `only_global=true` (`'/rules'(get, …)` and `'/connectors'(get, …)` at 6.2.2:
 * `false when Namespace0 == ?global_ns -> all`); each item says its `namespace` (null when global).
 */
export function listedScopes(store: Store, request: FastifyRequest): [string | null, NamespaceScope][] {
  const ns = namespaceOf(store, request);
  const onlyGlobal = String((request.query as NamespaceQuery)?.only_global) === 'true';
  if (ns !== null || onlyGlobal || !store.profile.feature('namespaces')) return [[ns, store.namespaces.scope(ns)]];
  return store.namespaces.all();
}

/** An answer with its namespace (emqx_connector_api.erl namespace_out/1: null for the global one). */
export const inNamespace = <T extends object>(view: T, ns: string | null): T & { namespace: string | null } => ({ ...view, namespace: ns });
