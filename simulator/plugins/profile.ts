// Makes the API answer as the selected broker release (store/profile.ts): routes that release
// lacks answer 404 as unknown paths do, fields it lacks leave its responses and are refused in
// requests, replies that changed between releases take the older form. It also applies the
// input rules every release shares (hocon, as minirest uses it): a JSON `null` counts as an
// omitted field (`drop_nulls` in hocon_tconf.erl), a field the schema does not know is refused
// with 400 naming it (`unknown_fields`), a request without a body has the empty object as its body
// (minirest_handler.erl do_read_body/2: `body => #{}`), and a known path with the wrong method
// answers 405 with an `allow` header (minirest_handler.erl).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { walkFields, type Profile } from '../store/profile.ts';
import { apiError, unknownFieldMessage } from './errors.ts';

const API_PREFIX = '/api/v5';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The selected release does not have this route: it answers 404 without asking for credentials. */
    unavailable?: boolean;
  }
}

function notFound(_request: FastifyRequest, reply: FastifyReply): void {
  reply.code(404).send({ code: 'NOT_FOUND', message: 'Request Path Not Found' });
}

/** Removes `null` members of objects at every depth (array elements stay). */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) dropNulls(item);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (record[key] === null) delete record[key];
      else dropNulls(record[key]);
    }
  }
  return value;
}

function relative(url: string | undefined): string {
  return url?.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url ?? '';
}

/** A path pattern of a registered route as a regular expression over concrete paths. */
function patternOf(url: string): RegExp {
  const source = url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return new RegExp(`^${source}/?$`);
}

export interface ProfileLayer {
  /** Called from the app's onRoute hook: false when the route is not in this release. */
  onRoute(route: RouteOptions): boolean;
  /** The methods registered for a concrete path, for the 405 answer. */
  methodsOf(path: string): string[];
}

/**
 * Paths that minirest finds before a parametrised path of the same shape, with their methods.
 * cowboy matches the path first and the method second, in list order; emqx_dashboard_swagger:spec/2
 * (v5.5.1, e5.8.9) builds each module's list in reverse of its paths(), and every module there lists
 * the literal path after the parametrised one (`/plugins/install` after `/plugins/:name`,
 * `/actions/:id/metrics` after `/actions/:id/:operation`, `/sso/running`, `/authentication/order`,
 * `/authorization/sources/order`, `/plugins/:name/config|schema|move`). So the literal path
 * answers every request to it, 405 for a method only the parametrised path has.
 */
export function literalsFirst(routes: { url: string; method: string }[]): { pattern: RegExp; methods: string[] }[] {
  const byUrl = new Map<string, Set<string>>();
  for (const r of routes) if (r.method !== 'HEAD') (byUrl.get(r.url) ?? byUrl.set(r.url, new Set()).get(r.url))!.add(r.method);
  const urls = [...byUrl.keys()];
  const parts = (u: string) => u.split('/');
  const out: { pattern: RegExp; methods: string[] }[] = [];
  for (const literal of urls) {
    const l = parts(literal);
    const shadows = urls.some((other) => {
      const o = parts(other);
      if (other === literal || o.length !== l.length) return false;
      let literalWhereParam = false;
      for (let i = 0; i < l.length; i++) {
        const lp = l[i].startsWith(':');
        const op = o[i].startsWith(':');
        if (!lp && !op && l[i] !== o[i]) return false;
        if (lp && !op) return false;
        if (!lp && op) literalWhereParam = true;
      }
      return literalWhereParam && [...(byUrl.get(other) ?? [])].some((m) => !byUrl.get(literal)?.has(m));
    });
    if (shadows) out.push({ pattern: patternOf(literal), methods: [...(byUrl.get(literal) ?? [])] });
  }
  return out;
}

export function profilePlugin(app: FastifyInstance, profile: Profile): ProfileLayer {
  const known: { pattern: RegExp; method: string }[] = [];
  const routes: { url: string; method: string }[] = [];
  let literals: { pattern: RegExp; methods: string[] }[] | null = null;

  // Before credentials are asked, as minirest_handler.erl checks the method first.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${API_PREFIX}/`)) return;
    literals ??= literalsFirst(routes);
    const path = request.url.split('?')[0];
    for (const { pattern, methods } of literals) {
      if (!pattern.test(path) || methods.includes(request.method) || (request.method === 'HEAD' && methods.includes('GET'))) continue;
      return reply.code(405).header('allow', methods.join(', ')).send();
    }
  });

  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.unavailable) return;
    if (request.body === undefined && (request.routeOptions.schema as { body?: { type?: string } } | undefined)?.body?.type === 'object') request.body = {};
    const body = request.body;
    if (body === null || typeof body !== 'object') return;
    dropNulls(body);
    const url = relative(request.routeOptions.url);
    for (const path of profile.missingFields(url)) {
      walkFields(body, path, (_holder, key) => {
        throw apiError(400, 'BAD_REQUEST', unknownFieldMessage(key));
      });
    }
    for (const row of profile.refusedValues(url)) {
      const value = (body as Record<string, unknown>)[row.field];
      if (typeof value === 'string' && row.values.includes(value)) {
        throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: row.field, reason: 'unable_to_convert_to_enum_symbol', value }));
      }
    }
  });

  app.addHook('preSerialization', async (request, _reply, payload) => {
    return profile.strip(relative(request.routeOptions.url), payload);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const older = profile.reply(request.method, relative(request.routeOptions.url));
    if (!older || reply.statusCode >= 300) return payload;
    reply.code(older.status);
    if (!older.empty) return payload;
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  });

  return {
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const url = relative(route.url);
      const available = !route.url.startsWith(API_PREFIX) || methods.every((m) => profile.hasRoute(m, url));
      if (!available) {
        route.config = { ...route.config, unavailable: true, public: true };
        route.schema = undefined;
        route.handler = notFound;
        return false;
      }
      if (route.url.startsWith(API_PREFIX)) {
        for (const method of methods) {
          known.push({ pattern: patternOf(route.url), method });
          routes.push({ url: route.url, method });
        }
      }
      return true;
    },
    methodsOf(path) {
      const clean = path.split('?')[0];
      return [...new Set(known.filter((k) => k.method !== 'HEAD' && k.pattern.test(clean)).map((k) => k.method))];
    },
  };
}
