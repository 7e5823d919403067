// EMQX emqx_authn_api: the authentication chain and built-in database users (part 2 §2).
import type { FastifyInstance } from 'fastify';

export default async function authentication(_app: FastifyInstance): Promise<void> {}
