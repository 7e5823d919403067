// EMQX emqx_mgmt_api_plugins: plugin packages (§21).
import type { FastifyInstance } from 'fastify';

export default async function plugins(_app: FastifyInstance): Promise<void> {}
