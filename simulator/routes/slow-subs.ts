// EMQX module emqx_slow_subs_api: /slow_subscriptions (envelope F; page and limit accepted and
// ignored) and /slow_subscriptions/settings, emqx-api-part1 §13.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { DEFAULT_SLOW_SUBS, durationMs, type SlowSubsSettings } from '../store/messaging/slow-subs.ts';

const duration = { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'integer', minimum: 0 }] } as const;
const settingsProperties = {
  enable: { type: 'boolean' },
  threshold: duration,
  expire_interval: duration,
  top_k_num: { type: 'integer', minimum: 1 },
  stats_type: { type: 'string', enum: ['whole', 'internal', 'response'] },
} as const;
const settingsOut = {
  type: 'object',
  properties: { ...settingsProperties, threshold: { type: 'string' }, expire_interval: { type: 'string' } },
} as const;
const record = {
  type: 'object',
  properties: {
    clientid: { type: 'string' }, node: { type: 'string' }, topic: { type: 'string' },
    timespan: { type: 'integer' }, last_update_time: { type: 'integer' },
  },
} as const;

type SettingsBody = Partial<Omit<SlowSubsSettings, 'threshold' | 'expire_interval'> & { threshold: string | number; expire_interval: string | number }>;

/** A duration as the config keeps it: strings as given, integers as milliseconds. */
function checkDuration(field: string, value: string | number, minMs: number): string {
  const text = typeof value === 'number' ? `${value}ms` : value;
  const ms = durationMs(text);
  if (ms === null) throw apiError(400, 'BAD_REQUEST', `${field}: not a duration: ${text}`);
  if (ms < minMs) throw apiError(400, 'BAD_REQUEST', `${field}: must be at least ${minMs}ms`);
  return text;
}

export default async function slowSubs(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/slow_subscriptions', {
    schema: {
      querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1 } } },
      response: { 200: { type: 'object', properties: { data: { type: 'array', items: record } } } },
    },
  }, async () => ({ data: store.slowSubs.list() }));

  app.delete('/slow_subscriptions', async (_request, reply) => {
    store.slowSubs.clear();
    return reply.code(204).send();
  });

  app.get('/slow_subscriptions/settings', { schema: { response: { 200: settingsOut } } }, async () => store.slowSubs.settings());

  app.put<{ Body: SettingsBody }>('/slow_subscriptions/settings', {
    schema: {
      body: { type: 'object', additionalProperties: false, properties: settingsProperties },
      response: { 200: settingsOut },
    },
  }, async (request) => {
    // Like a config update, a field left out takes its default.
    const b = { ...DEFAULT_SLOW_SUBS, ...request.body };
    return store.slowSubs.update({
      enable: b.enable,
      // The console and EMQX's dashboard refuse thresholds under 100 ms.
      threshold: checkDuration('threshold', b.threshold, 100),
      expire_interval: checkDuration('expire_interval', b.expire_interval, 1),
      top_k_num: b.top_k_num,
      stats_type: b.stats_type,
    });
  });
}
