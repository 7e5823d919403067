// EMQX module emqx_license_http_api: GET and POST /license, GET and PUT /license/setting.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import type { LicenseSetting } from '../store/dashboard/license.ts';

const percent = { type: 'string', maxLength: 16 } as const;
const settingBody = {
  type: 'object',
  required: ['connection_low_watermark', 'connection_high_watermark'],
  properties: { connection_low_watermark: percent, connection_high_watermark: percent },
};

export default async function license(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/license', async () => store.license.info());

  // emqx_license_http_api.erl fields(key_license) (e5.5.1 to 6.2.2): `key` alone, checked as a
  // struct (hoconsc:ref). PUT /license/setting is not closed: its requestBody is setting(), a bare
  // field list, which emqx_dashboard_swagger.erl check_request_body/5 checks field by field and so
  // takes any other field.
  app.post<{ Body: { key?: string } }>('/license', {
    schema: { body: { type: 'object', additionalProperties: false, properties: { key: { type: 'string', maxLength: 65536 } } } },
  }, async (request) => {
    const { key } = request.body;
    if (key === undefined) throw apiError(400, 'BAD_REQUEST', 'Invalid request params');
    const info = await store.license.updateKey(key);
    // The new quota applies at once to the quota alarm.
    store.conditions.checkLicense();
    return info;
  });

  app.get('/license/setting', async () => store.license.setting());

  app.put<{ Body: LicenseSetting }>('/license/setting', { schema: { body: settingBody } }, async (request) => {
    const setting = await store.license.updateSetting(request.body);
    // New watermarks apply at once to the quota alarm.
    store.conditions.checkLicense();
    return setting;
  });
}
