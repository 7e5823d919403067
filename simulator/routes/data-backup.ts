// EMQX emqx_mgmt_api_data_backup: export, files, import.
import type { FastifyInstance } from 'fastify';

export default async function dataBackup(_app: FastifyInstance): Promise<void> {}
