// EMQX emqx_mgmt_api_banned: banned clients (§14).
import type { FastifyInstance } from 'fastify';

export default async function banned(_app: FastifyInstance): Promise<void> {}
