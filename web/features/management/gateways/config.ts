/**
 * Gateway config between the API and the flat form: what `GET /gateways/{name}` adds (status,
 * times, listeners, authentication) is not part of the basic form, and JSON-valued fields
 * (predefined topics) are edited as text.
 */
import { flatten, unflatten } from '../../../lib/paths.ts';
import type { GatewayKind } from './kinds.ts';

/** Keys of the GET answer that are state or edited elsewhere, never sent back by the settings form. */
const NOT_BASIC = ['name', 'status', 'created_at', 'started_at', 'stopped_at', 'max_connections', 'current_connections', 'node_status', 'listeners', 'authentication'];

export function basicValues(kind: GatewayKind, config: Record<string, unknown>): Record<string, unknown> {
  const rest = Object.fromEntries(Object.entries(config).filter(([key]) => !NOT_BASIC.includes(key)));
  const flat = flatten(rest);
  for (const key of kind.json ?? []) flat[key] = JSON.stringify(flat[key] ?? [], null, 2);
  return flat;
}

export function basicBody(kind: GatewayKind, values: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...values };
  for (const key of kind.json ?? []) copy[key] = JSON.parse(String(copy[key] || '[]'));
  // An empty PEM field means none: EMQX rejects an empty file name, and no cert means no TLS.
  for (const key of Object.keys(copy)) if (key.includes('ssl_options.') && copy[key] === '') delete copy[key];
  return unflatten(copy);
}
