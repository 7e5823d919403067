// EMQX module emqx_audit_api (Enterprise): GET /audit, and the recording of every change made
// through the API that emqx_dashboard_audit.erl log_meta/2 does. Registered first in the route list
// and without encapsulation, so its hooks see the requests of every route module after it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { redactBody, redactHeaders, type AuditFilters } from '../store/dashboard/audit.ts';
import { pageQueryProperties } from '../store/pagination.ts';

const API_PREFIX = '/api/v5';
const text = { type: 'string', maxLength: 1024 } as const;
const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageQueryProperties,
    node: text,
    from: { type: 'string', enum: ['dashboard', 'rest_api', 'cli', 'erlang_console'] },
    source: text,
    source_ip: text,
    operation_id: text,
    operation_type: text,
    operation_result: { type: 'string', enum: ['success', 'failure'] },
    http_status_code: { type: 'integer', minimum: 0, maximum: 999 },
    http_method: { type: 'string', enum: ['post', 'put', 'delete'] },
    gte_duration_ms: { type: 'integer', minimum: 0 },
    lte_duration_ms: { type: 'integer', minimum: 0 },
    gte_created_at: { type: 'string', maxLength: 64 },
    lte_created_at: { type: 'string', maxLength: 64 },
  },
} as const;

type Query = Omit<AuditFilters, 'gte_created_at' | 'lte_created_at'> & { page: number; limit: number; gte_created_at?: string; lte_created_at?: string };

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** An `epoch_microsecond` input (integer microseconds or RFC 3339) as epoch microseconds, or null. */
function parseMicros(value: string): number | null {
  if (/^\d{1,19}$/.test(value)) return Number(value);
  const m = RFC3339.exec(value);
  if (!m) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const sub = (m[2] ?? '').padEnd(6, '0').slice(3, 6);
  return ms * 1000 + Number(sub || 0);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The error body of a failed request, for its audit entry. */
    auditFailure?: Record<string, unknown>;
  }
}

export default async function audit(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const log = store.audit;

  app.get<{ Querystring: Query }>('/audit', { schema: { querystring } }, async (request) => {
    if (!log.settings().enable) throw apiError(400, 'BAD_REQUEST', 'Audit is disabled');
    const { page, limit, gte_created_at, lte_created_at, ...exact } = request.query;
    const filters: AuditFilters = { ...exact };
    for (const [key, value] of [['gte_created_at', gte_created_at], ['lte_created_at', lte_created_at]] as const) {
      if (value === undefined) continue;
      const micros = parseMicros(value);
      if (micros === null) throw apiError(400, 'BAD_REQUEST', `the ${key} parameter expected type is epoch_microsecond, but the value is ${value}`);
      filters[key] = micros;
    }
    return log.query(filters, page, limit);
  });

  if (!store.profile.hasApp('emqx_audit')) return;

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (reply.statusCode >= 300 && typeof payload === 'string' && payload.startsWith('{')) {
      try {
        const body = JSON.parse(payload) as Record<string, unknown>;
        if (typeof body.code === 'string') request.auditFailure = { code: body.code, message: body.message ?? '' };
      } catch {
        request.auditFailure = { code: String(reply.statusCode), message: '' };
      }
    }
    return payload;
  });

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions;
    // Unknown paths and routes this release lacks are not operations.
    if (!route.url?.startsWith(API_PREFIX) || route.config?.unavailable) return;
    const operationId = route.url.slice(API_PREFIX.length);
    if (!log.wants(request.method, operationId)) return;
    const code = reply.statusCode;
    const principal = request.principal;
    const failure = request.auditFailure;
    const body = request.body as Record<string, unknown> | undefined;
    // from/1 and source/1: the credentials used; a login names its user; a refused key is rest_api.
    const keyRefused = failure?.code === 'BAD_API_KEY_OR_SECRET' || failure?.code === 'API_KEY_NOT_ALLOW';
    const from = principal ? (principal.kind === 'api_key' ? 'rest_api' : 'dashboard') : keyRefused ? 'rest_api' : 'dashboard';
    const source = principal?.name ?? (operationId === '/login' && typeof body?.username === 'string' ? body.username : '');
    const method = request.method.toLowerCase() as 'post' | 'put' | 'delete';
    log.record({
      node: store.cluster.self,
      from,
      source,
      // The socket's peer: EMQX takes the first X-Forwarded-For address whoever sent it
      // (emqx_dashboard_audit.erl source_ip/1 at e5.8.9), which any client can forge; here that
      // header counts only from the proxies the trustProxy option names (security.md S27).
      source_ip: request.ip,
      operation_id: operationId,
      // operation_type/1: the first segment of the operation id.
      operation_type: operationId.split('/')[1] ?? 'unknown',
      operation_result: code >= 300 || failure ? 'failure' : 'success',
      http_status_code: code,
      http_method: method,
      duration_ms: Math.round(reply.elapsedTime),
      args: '',
      failure: failure ?? '',
      http_request: {
        method,
        bindings: { ...(request.params as Record<string, unknown> | undefined) },
        body: body === undefined || body === null ? {} : redactBody(body),
        headers: redactHeaders(request.headers as Record<string, unknown>),
      },
    });
  });
}

// Not encapsulated (what fastify-plugin marks): the hooks above apply to the whole API.
(audit as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
