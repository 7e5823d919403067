// EMQX emqx_mgmt_api_configs whole-configuration endpoints (emqx-api-part1 §22.2): GET /configs
// as HOCON text (or the legacy JSON), PUT /configs with HOCON text in merge or replace mode, and
// POST /configs_reset/{root}. The whole config is the roots the simulator holds: the config roots,
// the global zone's parts as top-level roots, and the listeners. A PUT first runs every root
// through the same validation on a scratch copy of the state; only when all pass is each root
// written through the per-root code paths, so their effects (log level, $SYS intervals) happen.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { CONFIG_ROOTS, ConfigError, ConfigRoots, deepMerge, obfuscate, restoreSecrets, validateStruct, type ConfigRoot } from '../store/config/config-roots.ts';
import type { StoreContext } from '../store/context.ts';
import { HoconError, parseHocon, writeHocon } from '../lib/hocon.ts';
import type { PersistedState } from '../store/state.ts';
import type { Store } from '../store/index.ts';
import { Zone, type ZoneConfig } from '../store/config/zone.ts';

type Obj = Record<string, unknown>;

const ZONE_ROOTS = ['mqtt', 'flapping_detect', 'force_shutdown', 'force_gc'] as const;
type ZoneRoot = (typeof ZONE_ROOTS)[number];

/** Every root of the whole config, in the order GET /configs writes them. */
export const WHOLE_ROOTS = [
  'listeners', 'mqtt', 'log', 'sys_topics', 'force_shutdown', 'force_gc', 'flapping_detect', 'sysmon', 'alarm',
  'retainer', 'limiter', 'dashboard', 'prometheus', 'opentelemetry',
] as const;

const isConfigRoot = (root: string): root is ConfigRoot => (CONFIG_ROOTS as readonly string[]).includes(root);
const isZoneRoot = (root: string): root is ZoneRoot => (ZONE_ROOTS as readonly string[]).includes(root);
const isWholeRoot = (root: string) => (WHOLE_ROOTS as readonly string[]).includes(root);

function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

// Keys of GET /listeners/{id} that are status, not config.
const LISTENER_STATUS_KEYS = new Set(['id', 'type', 'name', 'running', 'current_connections']);

/** The listeners as `{tcp: {default: {...}}}`, raw config with defaults filled. */
function listenersRoot(store: Store): Obj {
  const out: Obj = {};
  for (const { id } of store.listeners.list()) {
    const detail = store.listeners.detail(id);
    if (!detail) continue;
    const [type, name] = id.split(':');
    const byName = (out[type] ??= {}) as Obj;
    byName[name] = Object.fromEntries(Object.entries(detail).filter(([k]) => !LISTENER_STATUS_KEYS.has(k)));
  }
  return out;
}

/** The raw value of one root (secrets not yet obfuscated). */
function rootValue(store: Store, root: string): Obj {
  if (root === 'listeners') return listenersRoot(store);
  if (isZoneRoot(root)) return store.zone.get()[root] as Obj;
  return store.configRoots.get(root as ConfigRoot);
}

/** A root's failure as `{path, reason, value?}` with the path from the top of the config. */
interface RootError {
  path: string;
  reason: string;
  value?: unknown;
}

function rootError(root: string, err: unknown): RootError {
  if (err instanceof ConfigError) {
    const out: RootError = { path: err.path ? `${root}.${err.path}` : root, reason: err.reason };
    if (err.value !== undefined) out.value = err.value;
    return out;
  }
  if (err instanceof Error && 'statusCode' in err) {
    // The zone store answers UPDATE_FAILED with either text or the JSON of a validation error.
    try {
      // The schema checker's errors (one, or a list: the first) name the body as `root`.
      const first = JSON.parse(err.message) as RootError | RootError[];
      const parsed = Array.isArray(first) ? first[0] : first;
      if (parsed && typeof parsed.path === 'string') {
        const path = parsed.path.replace(/^root(?=\.|$)/, root);
        return { path, reason: parsed.reason, ...(parsed.value !== undefined ? { value: parsed.value } : {}) };
      }
    } catch {
      // plain text: the message names the path itself
    }
    const m = /^([\w.]+): (.*)$/.exec(err.message);
    return m ? { path: m[1], reason: m[2] } : { path: root, reason: err.message };
  }
  throw err;
}

/** 400 with the EMQX `{code, message}` plus `errors` by root (emqx-api-part1 §22.2). */
function sendErrors(reply: FastifyReply, errors: Record<string, RootError | { line: number; column: number; reason: string }>): FastifyReply {
  const message = Object.entries(errors)
    .map(([root, e]) => ('line' in e ? `line ${e.line}, column ${e.column}: ${e.reason}` : `${e.path}: ${e.reason}`) || root)
    .join('; ');
  return reply.code(400).type('text/plain; charset=utf-8').send(JSON.stringify({ code: 'UPDATE_FAILED', message, errors }));
}

/** Which answer an Accept header asks for: the first acceptable type in its list wins. */
function answerKind(accept: string | undefined): 'text' | 'json' | null {
  if (!accept || !accept.trim()) return 'text';
  for (const part of accept.split(',')) {
    const type = part.split(';')[0].trim().toLowerCase();
    if (type === 'text/plain' || type === 'text/*' || type === '*/*') return 'text';
    if (type === 'application/json') return 'json';
  }
  return null;
}

type Mode = 'merge' | 'replace';

/** The parts of an accepted PUT, ready to write. */
interface Plan {
  zone: Partial<Record<ZoneRoot, Obj>>;
  roots: [ConfigRoot, Obj][];
}

/**
 * Runs every root of a PUT through validation on a scratch copy of the state (the real state is
 * not touched); returns the writes, or the errors by root.
 */
async function plan(store: Store, config: Obj, mode: Mode, ignoreReadonly: boolean): Promise<{ plan: Plan } | { errors: Record<string, RootError> }> {
  const scratch: StoreContext = {
    clock: store.clock,
    profile: store.profile,
    state: structuredClone({ config_roots: store.state.config_roots, zone: store.state.zone }) as unknown as PersistedState,
    persist: async () => {},
    onStateReplaced: () => {},
    stateReplaced: async () => {},
  };
  const roots = new ConfigRoots(scratch);
  const zone = new Zone(scratch);
  const errors: Record<string, RootError> = {};
  const out: Plan = { zone: {}, roots: [] };
  const defaults = zone.defaults() as unknown as Record<ZoneRoot, Obj>;

  for (const [root, given] of Object.entries(config)) {
    if (!isWholeRoot(root)) {
      errors[root] = { path: root, reason: 'unknown config root' };
      continue;
    }
    if (!isObj(given)) {
      errors[root] = { path: root, reason: 'expected an object', value: given };
      continue;
    }
    if (root === 'listeners') {
      // Listeners change through /listeners (sockets open and close); here they are read-only.
      const current = listenersRoot(store);
      for (const [type, byName] of Object.entries(given)) {
        for (const [name, value] of Object.entries(isObj(byName) ? byName : { '': byName })) {
          const old = isObj(current[type]) ? (current[type] as Obj)[name] : undefined;
          const next = isObj(old) && mode === 'merge' ? deepMerge(old, restoreSecrets(value, old)) : restoreSecrets(value, old);
          if (!same(next, old) && !ignoreReadonly && !errors.listeners) errors.listeners = { path: `listeners.${type}.${name}`, reason: 'read only' };
        }
      }
      continue;
    }
    if (isZoneRoot(root)) {
      const body = mode === 'replace' ? { ...defaults[root], ...given } : given;
      try {
        // The reference's ranges too (the zone store checks them for mqtt only).
        if (root !== 'mqtt') validateStruct(root, root, given, '');
        await zone.update({ [root]: body } as Partial<ZoneConfig>);
        out.zone[root] = body;
      } catch (err) {
        errors[root] = rootError(root, err);
      }
      continue;
    }
    const body = { ...given };
    if (root === 'dashboard' && ignoreReadonly) delete body.default_password;
    try {
      await roots.put(root as ConfigRoot, body, { replace: mode === 'replace' });
      out.roots.push([root as ConfigRoot, body]);
    } catch (err) {
      errors[root] = rootError(root, err);
    }
  }
  return Object.keys(errors).length ? { errors } : { plan: out };
}

const getQuery = {
  type: 'object',
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 256 },
    node: { type: 'string', minLength: 1, maxLength: 256 },
  },
};
const putQuery = {
  type: 'object',
  properties: {
    mode: { type: 'string', enum: ['merge', 'replace'], default: 'merge' },
    ignore_readonly: { type: 'boolean', default: false },
  },
};
// `consumes` (an OpenAPI keyword Fastify keeps) says the body is HOCON text, not JSON.
const putSchema = { consumes: ['text/plain'], querystring: putQuery, body: { type: 'string' } };
const resetParams = { type: 'object', required: ['root'], properties: { root: { type: 'string', minLength: 1, maxLength: 256 } } };
const resetQuery = { type: 'object', properties: { conf_path: { type: 'string', minLength: 1, maxLength: 1024 } } };

export default async function configsHocon(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get<{ Querystring: { key?: string; node?: string } }>('/configs', { schema: { querystring: getQuery } }, async (request, reply) => {
    const kind = answerKind(request.headers.accept);
    if (!kind) throw apiError(400, 'INVALID_ACCEPT', `Invalid accept header: ${String(request.headers.accept).slice(0, 100)}`);
    const { key, node } = request.query;
    // The configuration is the cluster's: every node answers the same.
    if (node !== undefined && !store.cluster.has(node)) throw apiError(404, 'NOT_FOUND', `Node not found: ${node.slice(0, 100)}`);
    if (key !== undefined && !isWholeRoot(key)) throw apiError(404, 'NOT_FOUND', `Config key not found: ${key.slice(0, 100)}`);
    const roots = key ? [key] : WHOLE_ROOTS;
    const config = obfuscate(Object.fromEntries(roots.map((root) => [root, rootValue(store, root)]))) as Obj;
    if (kind === 'json') return config;
    return reply.type('text/plain; charset=utf-8').send(writeHocon(config as Parameters<typeof writeHocon>[0]));
  });

  app.put<{ Querystring: { mode: Mode; ignore_readonly: boolean }; Body: string }>('/configs', { schema: putSchema }, async (request, reply) => {
    let config: Obj;
    try {
      config = parseHocon(request.body);
    } catch (err) {
      if (!(err instanceof HoconError)) throw err;
      return sendErrors(reply, { hocon: { line: err.line, column: err.column, reason: err.reason } });
    }
    const result = await plan(store, config, request.query.mode, request.query.ignore_readonly);
    if ('errors' in result) return sendErrors(reply, result.errors);
    // Everything passed: write through the same code paths as the per-root PUTs.
    if (Object.keys(result.plan.zone).length) await store.zone.update(result.plan.zone as Partial<ZoneConfig>);
    for (const [root, body] of result.plan.roots) await store.configRoots.put(root, body, { replace: request.query.mode === 'replace' });
    return reply.code(200).send();
  });

  app.post<{ Params: { root: string }; Querystring: { conf_path?: string } }>('/configs_reset/:root', {
    config: { noBody: true },
    schema: { params: resetParams, querystring: resetQuery },
  }, async (request, reply) => {
    const { root } = request.params;
    const path = request.query.conf_path?.split('.') ?? [];
    if (path.some((p) => p === '')) throw apiError(400, 'BAD_REQUEST', 'conf_path must be a dot path such as console.level');
    // The broker declares the root as an enum path parameter, so an unknown root is a 400.
    if (!isWholeRoot(root)) throw apiError(400, 'BAD_REQUEST', `Unknown config root: ${root.slice(0, 100)}`);
    const noDefault = () => apiError(400, 'NO_DEFAULT_VALUE', `No default value for ${[root, ...path].join('.').slice(0, 300)}`);
    if (root === 'listeners') throw apiError(400, 'REST_FAILED', 'Listeners have no default to reset to; change them on the listeners page');
    if (isConfigRoot(root)) {
      try {
        await store.configRoots.reset(root, path);
      } catch (err) {
        if (err instanceof ConfigError) throw noDefault();
        throw err;
      }
      return reply.code(200).send();
    }
    const defaults = (store.zone.defaults() as unknown as Record<ZoneRoot, Obj>)[root as ZoneRoot];
    if (path.length === 0) {
      await store.zone.update({ [root]: defaults });
      return reply.code(200).send();
    }
    let fallback: unknown = defaults;
    for (const key of path) fallback = isObj(fallback) && Object.hasOwn(fallback, key) ? fallback[key] : undefined;
    if (fallback === undefined) throw noDefault();
    // The zone store replaces a key's whole value, so a deeper path rebuilds its first key.
    const first = structuredClone((store.zone.get() as unknown as Record<string, Obj>)[root][path[0]]);
    let value: unknown = fallback;
    if (path.length > 1 && isObj(first)) {
      let at: Obj = first;
      for (const key of path.slice(1, -1)) at = (isObj(at[key]) ? at[key] : (at[key] = {})) as Obj;
      at[path[path.length - 1]] = fallback;
      value = first;
    }
    await store.zone.update({ [root]: { [path[0]]: value } });
    return reply.code(200).send();
  });
}
