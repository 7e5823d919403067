// EMQX emqx_mgmt_api_configs: GET/PUT /configs/global_zone (mqtt, flapping_detect, force_shutdown,
// force_gc; emqx-api-part1 §15, §22.2). PUT merges the keys it names and answers the whole config.
import type { FastifyInstance } from 'fastify';

export default async function zone(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/configs/global_zone', async () => store.zone.get());

  app.put<{ Body: Record<string, unknown> }>('/configs/global_zone', { schema: { body: { type: 'object' } } },
    async (request) => store.zone.update(request.body));
}
