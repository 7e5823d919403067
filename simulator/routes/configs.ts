// EMQX emqx_mgmt_api_configs: the other config roots (§22.2) and cluster (§22.3).
import type { FastifyInstance } from 'fastify';

export default async function configs(_app: FastifyInstance): Promise<void> {}
