// EMQX module emqx_mgmt_api_api_keys: /api_key, /api_key/{name} and, from 5.9, /api_key_scopes.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { apiKeyCatalog } from '../store/dashboard/scopes.ts';
import type { ApiKeyRole } from '../store/state.ts';
import { parseEpochSecond } from '../lib/time.ts';

interface KeyBody {
  name?: string;
  desc?: string;
  enable?: boolean;
  expired_at?: string | number;
  role?: ApiKeyRole;
  scopes?: string[];
}

interface KeyParams {
  name: string;
}

const name = { type: 'string', minLength: 1, maxLength: 256, pattern: '^[A-Za-z]+[A-Za-z0-9-_]*$' } as const;
const fields = {
  desc: { type: 'string', maxLength: 1000 },
  enable: { type: 'boolean' },
  // "infinity", an RFC 3339 string or epoch seconds.
  expired_at: { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'integer', minimum: 0 }] },
  // emqx_dashboard_rbac.erl valid_api_role/1; the profile refuses the field without RBAC.
  role: { type: 'string', enum: ['administrator', 'viewer', 'publisher'] },
  // fields(app) `scopes` (5.9 on; the profile refuses it before): a list of scope names.
  scopes: { type: 'array', maxItems: 64, items: { type: 'string', maxLength: 64 } },
} as const;
const keyParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 256 } } };
// Only these fields may leave; the secret only in the POST answer.
const keyProperties = {
  name: { type: 'string' }, api_key: { type: 'string' }, expired_at: { type: 'string' },
  created_at: { type: 'string' }, desc: { type: 'string' }, enable: { type: 'boolean' }, expired: { type: 'boolean' },
  role: { type: 'string' },
  scopes: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
} as const;
const key = { type: 'object', properties: keyProperties };

function expiry(value: string | number | undefined): number | null {
  if (value === undefined || value === 'infinity') return null;
  const ms = parseEpochSecond(value);
  if (ms === null) throw apiError(400, 'BAD_REQUEST', 'body/expired_at must be "infinity", an RFC 3339 time or epoch seconds');
  return ms;
}

export default async function apiKeys(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/api_key', { schema: { response: { 200: { type: 'array', items: key } } } }, async () => store.apiKeys.list());

  app.post<{ Body: KeyBody & { name: string } }>('/api_key', {
    schema: {
      body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name, ...fields } },
      response: { 200: { type: 'object', properties: { ...keyProperties, api_secret: { type: 'string' } } } },
    },
  }, async (request) => {
    const { name: keyName, desc, enable, expired_at, role, scopes } = request.body;
    return store.apiKeys.create(keyName, { desc, enable, expired_at: expiry(expired_at), role, scopes });
  });

  app.get<{ Params: KeyParams }>('/api_key/:name', { schema: { params: keyParams, response: { 200: key } } },
    async (request) => store.apiKeys.get(request.params.name));

  app.put<{ Params: KeyParams; Body: KeyBody }>('/api_key/:name', {
    schema: {
      params: keyParams,
      body: { type: 'object', additionalProperties: false, properties: fields },
      response: { 200: key },
    },
  }, async (request) => {
    const { desc, enable, expired_at, role, scopes } = request.body ?? {};
    return store.apiKeys.update(request.params.name, { desc, enable, expired_at: expiry(expired_at), role, scopes });
  });

  app.get('/api_key_scopes', async () => ({ scopes: apiKeyCatalog() }));

  app.delete<{ Params: KeyParams }>('/api_key/:name', { schema: { params: keyParams } }, async (request, reply) => {
    await store.apiKeys.remove(request.params.name);
    return reply.code(204).send();
  });
}
