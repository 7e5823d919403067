// EMQX module emqx_mgmt_api_plugins (emqx-api-part1 §21): list, install from a multipart
// `.tar.gz` upload, detail with README, start/stop, boot order, uninstall, and the 5.7+ config
// and schema calls.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { uploadPlugin, uploadedFile } from '../plugins/upload.ts';

interface IdParams {
  id: string;
}

/** Plugin packages may be large; EMQX itself caps uploads by its HTTP body limit. */
const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 256, pattern: '^[A-Za-z]+[A-Za-z0-9-_.]*$' } },
} as const;
const plugin = {
  type: 'object',
  additionalProperties: true,
  properties: {
    name: { type: 'string' },
    rel_vsn: { type: 'string' },
    rel_apps: { type: 'array', items: { type: 'string' } },
    description: { type: 'string' },
    running_status: {
      type: 'array',
      items: { type: 'object', properties: { node: { type: 'string' }, status: { type: 'string' } } },
    },
    readme: { type: 'string' },
  },
} as const;
// emqx_mgmt_api_plugins.erl fields(position) (v5.5.1 to 6.2.2): `position` alone.
const positionBody = {
  type: 'object',
  required: ['position'],
  additionalProperties: false,
  properties: { position: { type: 'string', maxLength: 300 } },
} as const;

// `consumes` (an OpenAPI keyword Fastify keeps) marks the upload for the schema-driven tests.
const uploadSchema = { consumes: ['multipart/form-data'], body: { type: 'object' } };

export default async function plugins(app: FastifyInstance): Promise<void> {
  const { store } = app;
  await uploadPlugin(app, MAX_PACKAGE_BYTES);

  app.get('/plugins', { schema: { response: { 200: { type: 'array', items: plugin } } } }, async () => store.plugins.list());

  app.post('/plugins/install', {
    // multipart/form-data with the file in the field `plugin`.
    schema: uploadSchema,
  }, async (request, reply) => {
    const part = uploadedFile(request.body, 'plugin');
    if (!part) throw apiError(400, 'BAD_FORM_DATA', 'form-data should be plugin=@packagename-vsn.tar.gz;type=application/x-gzip');
    await store.plugins.install(part.filename, part.data);
    return reply.code(204).send();
  });

  app.get<{ Params: IdParams }>('/plugins/:id', { schema: { params: idParams, response: { 200: plugin } } },
    async (request) => store.plugins.get(request.params.id));

  app.delete<{ Params: IdParams }>('/plugins/:id', { schema: { params: idParams } }, async (request, reply) => {
    await store.plugins.uninstall(request.params.id);
    return reply.code(204).send();
  });

  for (const action of ['start', 'stop'] as const) {
    app.put<{ Params: IdParams }>(`/plugins/:id/${action}`, { config: { noBody: true }, schema: { params: idParams } }, async (request, reply) => {
      await store.plugins.setRunning(request.params.id, action === 'start');
      return reply.code(204).send();
    });
  }

  app.post<{ Params: IdParams; Body: { position: string } }>('/plugins/:id/move', { schema: { params: idParams, body: positionBody } },
    async (request, reply) => {
      await store.plugins.move(request.params.id, request.body.position);
      return reply.code(204).send();
    });

  app.get<{ Params: IdParams }>('/plugins/:id/config', {
    schema: { params: idParams, response: { 200: { type: 'object', additionalProperties: true } } },
  }, async (request) => store.plugins.config(request.params.id));

  app.put<{ Params: IdParams; Body: Record<string, unknown> }>('/plugins/:id/config', {
    schema: { params: idParams, body: { type: 'object', additionalProperties: true } },
  }, async (request, reply) => {
    await store.plugins.setConfig(request.params.id, request.body);
    return reply.code(204).send();
  });

  app.get<{ Params: IdParams }>('/plugins/:id/schema', {
    schema: {
      params: idParams,
      response: {
        200: {
          type: 'object',
          properties: {
            avsc: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
            i18n: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
          },
        },
      },
    },
  }, async (request) => store.plugins.schema(request.params.id));
}
