/**
 * The namespace a 6.x screen shows (capability `namespaces`): the `ns` of the page's own query, so
 * a reload or a shared link shows the same namespace. Every request to an endpoint that takes `ns`
 * (rules, connectors, actions, sources,
 * built-in database users) carries it, reads and writes alike; without one a list asks
 * for the global objects only (`only_global=true`), since the broker lists every namespace's
 * otherwise. Knows no screen: the picker writes the URL, this reads it.
 */
import { setParamFilter, type Params } from './api.ts';
import { has } from './broker.ts';
import { currentSearch } from './navigation.ts';

const NAMESPACED = /^\/?((rules|connectors|actions|sources)(\/|_probe$|_summary$|$)|authentication\/[^/]+\/users(\/|$))/;
const LISTS = /^\/?(rules|connectors|actions|sources)$/;

/** The namespace of the current page, or undefined for the global one (and before 6.0). */
export function currentNamespace(): string | undefined {
  return (has('namespaces') && new URLSearchParams(currentSearch()).get('ns')) || undefined;
}

/** `href` in the current namespace: a link from a namespaced list to a detail page keeps it. */
export function withNamespace(href: string): string {
  const ns = currentNamespace();
  return ns ? `${href}${href.includes('?') ? '&' : '?'}ns=${encodeURIComponent(ns)}` : href;
}

/** The params of a request with the page's namespace added where the endpoint takes one. */
export function namespaceParams(method: string, path: string, params?: Params): Params | undefined {
  if (!has('namespaces') || !NAMESPACED.test(path) || params?.ns !== undefined) return params;
  const ns = currentNamespace();
  if (ns) return { ...params, ns };
  return method === 'GET' && LISTS.test(path) ? { only_global: true, ...params } : params;
}

setParamFilter(namespaceParams);
