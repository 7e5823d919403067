// EMQX emqx_gateway_api*: gateways, their listeners, authentication and clients (§19).
import type { FastifyInstance } from 'fastify';

export default async function gateways(_app: FastifyInstance): Promise<void> {}
