// EMQX emqx_mgmt_api_configs: GET/PUT /configs/global_zone (mqtt, flapping_detect, force_shutdown, force_gc).
import type { FastifyInstance } from 'fastify';

export default async function zone(_app: FastifyInstance): Promise<void> {}
