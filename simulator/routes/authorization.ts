// EMQX emqx_authz_api_*: authorization sources, built-in rules, settings, cache (part 2 §3).
import type { FastifyInstance } from 'fastify';

export default async function authorization(_app: FastifyInstance): Promise<void> {}
