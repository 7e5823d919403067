// EMQX module emqx_mgmt_api_data_backup: export the configuration to a .tar.gz, list, upload,
// download and delete backup files, and import one back. Files belong to node 1 (this process).
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { uploadPlugin, uploadedFile } from '../plugins/upload.ts';
import { SELF_NODE } from '../store/cluster/cluster.ts';
import { paginate, pageQueryProperties, type PageQuery } from '../store/pagination.ts';

interface FileParams {
  filename: string;
}

const MAX_BACKUP_BYTES = 64 * 1024 * 1024;

const fileView = {
  type: 'object',
  // emqx_mgmt_data_backup's backup_file_info: the API passes size and created_at_sec on too.
  properties: { node: { type: 'string' }, filename: { type: 'string' }, size: { type: 'integer' }, created_at: { type: 'string' }, created_at_sec: { type: 'integer' } },
} as const;
const fileParams = {
  type: 'object',
  required: ['filename'],
  properties: { filename: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;
const nodeQuery = { type: 'object', properties: { node: { type: 'string', maxLength: 256 } } } as const;
const stringList = { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 256 } } as const;

// `consumes` (an OpenAPI keyword Fastify keeps) marks the upload for the schema-driven tests.
const uploadSchema = { consumes: ['multipart/form-data'], body: { type: 'object' } };

export default async function dataBackup(app: FastifyInstance): Promise<void> {
  const { store } = app;
  await uploadPlugin(app, MAX_BACKUP_BYTES);

  // Files exist on this node only; another known node has none, an unknown one is an error.
  function checkNode(node: string | undefined): boolean {
    if (node === undefined || node === SELF_NODE) return true;
    if (!store.cluster.names().includes(node)) throw apiError(400, 'BAD_REQUEST', `Unknown node: ${node}`);
    return false;
  }

  app.post<{ Body: { table_sets?: string[]; root_keys?: string[] } }>('/data/export', {
    schema: {
      body: { type: 'object', additionalProperties: false, properties: { table_sets: stringList, root_keys: stringList } },
      response: { 200: fileView },
    },
  }, async (request) => store.backups.export(request.body?.root_keys, request.body?.table_sets, { apiKey: request.principal?.kind === 'api_key' }));

  app.get<{ Querystring: PageQuery }>('/data/files', {
    schema: {
      querystring: { type: 'object', properties: pageQueryProperties },
      response: {
        200: {
          type: 'object',
          properties: {
            data: { type: 'array', items: fileView },
            meta: { type: 'object', properties: { page: { type: 'integer' }, limit: { type: 'integer' }, count: { type: 'integer' }, hasnext: { type: 'boolean' } } },
          },
        },
      },
    },
  }, async (request) => paginate(await store.backups.list(), request.query));

  app.post('/data/files', {
    // multipart/form-data with the archive in the field `filename`.
    schema: uploadSchema,
  }, async (request, reply) => {
    const part = uploadedFile(request.body, 'filename');
    if (!part) throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: filename');
    await store.backups.upload(part.filename, part.data);
    return reply.code(204).send();
  });

  app.get<{ Params: FileParams; Querystring: { node?: string } }>('/data/files/:filename', {
    schema: { params: fileParams, querystring: nodeQuery },
  }, async (request, reply) => {
    const { filename } = request.params;
    if (!checkNode(request.query.node)) throw apiError(404, 'NOT_FOUND', 'Backup file not found');
    const data = await store.backups.download(filename, { apiKey: request.principal?.kind === 'api_key' });
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(data);
  });

  app.delete<{ Params: FileParams; Querystring: { node?: string } }>('/data/files/:filename', {
    schema: { params: fileParams, querystring: nodeQuery },
  }, async (request, reply) => {
    if (!checkNode(request.query.node)) throw apiError(404, 'NOT_FOUND', 'Backup file not found');
    await store.backups.remove(request.params.filename);
    return reply.code(204).send();
  });

  app.post<{ Body: { node?: string; filename: string } }>('/data/import', {
    schema: {
      body: {
        type: 'object',
        required: ['filename'],
        additionalProperties: false,
        properties: { node: { type: 'string', maxLength: 256 }, filename: { type: 'string', minLength: 1, maxLength: 255 } },
      },
    },
  }, async (request, reply) => {
    if (!checkNode(request.body.node)) throw apiError(400, 'BAD_REQUEST', 'Backup file not found');
    await store.backups.import(request.body.filename, {
      apiKey: request.principal?.kind === 'api_key',
      revokeUser: (username) => store.tokens.revokeUser(username),
    });
    return reply.code(204).send();
  });
}
