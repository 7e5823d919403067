/**
 * The broker's form schemas (`GET /schemas/{hotconf,connectors,actions,bridges}`, emqx-api-part2
 * §4.10), fetched at run time — never bundled — and kept for the session once loaded.
 */
import { api } from './api.ts';

/** A property in the dashboard flavour: `type` (string, integer, duration, byteSize, enum …), `symbols`, `oneOf`, `$ref` … */
export interface SchemaProp {
  type?: string;
  symbols?: string[];
  oneOf?: SchemaProp[];
  items?: SchemaProp;
  properties?: Record<string, SchemaProp>;
  required?: string[];
  $ref?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
  deprecated?: boolean;
}

export interface SchemaDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, SchemaProp>>;
  components: { schemas: Record<string, SchemaProp> };
}

export type SchemaName = 'hotconf' | 'connectors' | 'actions' | 'bridges';

const cache = new Map<SchemaName, Promise<SchemaDocument>>();

/** The document, fetched once; a failed fetch is forgotten so a retry fetches again. */
export function loadSchema(name: SchemaName): Promise<SchemaDocument> {
  let pending = cache.get(name);
  if (!pending) {
    pending = api.get<SchemaDocument>(`/schemas/${name}`);
    cache.set(name, pending);
    pending.catch(() => cache.delete(name));
  }
  return pending;
}

/** Forgets every loaded document (tests, logout). */
export function clearSchemas() {
  cache.clear();
}

/** Follows `$ref` (`#/components/schemas/<key>`) to the component; other properties unchanged. */
export function resolveRef(doc: SchemaDocument, prop: SchemaProp): SchemaProp {
  if (!prop.$ref) return prop;
  const key = prop.$ref.replace('#/components/schemas/', '');
  return doc.components.schemas[key] ?? {};
}
