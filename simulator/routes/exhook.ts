// EMQX emqx_exhook_api: ExHook servers (§20).
import type { FastifyInstance } from 'fastify';

export default async function exhook(_app: FastifyInstance): Promise<void> {}
