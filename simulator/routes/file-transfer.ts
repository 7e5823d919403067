// EMQX module emqx_ft_api (Enterprise): GET and PUT /file_transfer, the file lists.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { FileTransfer } from '../store/config/file-transfer.ts';
import { pageQueryProperties } from '../store/pagination.ts';

const duration = { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'integer', minimum: 0 }] } as const;
const body = {
  type: 'object',
  additionalProperties: false,
  properties: { enable: { type: 'boolean' }, init_timeout: duration, store_segment_timeout: duration, assemble_timeout: duration, storage: { type: 'object' } },
} as const;
const fileParams = {
  type: 'object', required: ['clientid', 'fileid'],
  properties: { clientid: { type: 'string', minLength: 1, maxLength: 65535 }, fileid: { type: 'string', minLength: 1, maxLength: 65535 } },
} as const;

export default async function fileTransfer(app: FastifyInstance): Promise<void> {
  const settings = new FileTransfer(app.store);

  app.get('/file_transfer', async () => settings.get());

  app.put<{ Body: Record<string, unknown> }>('/file_transfer', { schema: { body } }, async (request) => settings.put(request.body));

  // No transfer is ever stored: an empty first page, no cursor. EMQX's check_ft_enabled/2 answers
  // 503 SERVICE_UNAVAILABLE here while file transfer is off; the simulator answers the empty list
  // instead, keeping its promise that no request gets a 5xx (security.md S25).
  app.get('/file_transfer/files', {
    schema: { querystring: { type: 'object', additionalProperties: false, properties: { following: { type: 'string', maxLength: 1024 }, limit: pageQueryProperties.limit } } },
  }, async () => ({ files: [] }));

  app.get('/file_transfer/files/:clientid/:fileid', { schema: { params: fileParams } }, async () => {
    throw apiError(404, 'FILES_NOT_FOUND', 'Files requested for this transfer could not be found');
  });
}
