// Makes the API answer as the selected broker release (store/profile.ts): routes that release
// lacks answer 404 as unknown paths do, fields it lacks leave its responses and are refused in
// requests, replies that changed between releases take the older form. It also applies the
// input rules every release shares (hocon, as minirest uses it): a JSON `null` counts as an
// omitted field (`drop_nulls` in hocon_tconf.erl), a field the schema does not know is refused
// with 400 naming it (`unknown_fields`), and a known path with the wrong method answers 405 with
// an `allow` header (minirest_handler.erl).
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

export function profilePlugin(app: FastifyInstance, profile: Profile): ProfileLayer {
  const known: { pattern: RegExp; method: string }[] = [];

  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.unavailable) return;
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
      if (route.url.startsWith(API_PREFIX)) for (const method of methods) known.push({ pattern: patternOf(route.url), method });
      return true;
    },
    methodsOf(path) {
      const clean = path.split('?')[0];
      return [...new Set(known.filter((k) => k.method !== 'HEAD' && k.pattern.test(clean)).map((k) => k.method))];
    },
  };
}
