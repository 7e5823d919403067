// GET /error_codes and /error_codes/{code} (emqx_dashboard_error_code_api.erl): the catalog of
// http_api.hrl without a token, one more code on 5.8.9, an unknown code refused by the path check.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp } from '../helpers/simulator.ts';

test('the catalog answers without a token, per release', async () => {
  for (const [emqxVersion, count] of [['5.5.1', 30], ['5.8.9', 31]] as const) {
    const app = await buildTestApp({ emqxVersion });
    try {
      const list = (await api(app, 'GET', '/api/v5/error_codes')).json() as { code: string; description: string }[];
      assert.is(list.length, count, emqxVersion);
      assert.equal(list[0], { code: 'BAD_USERNAME_OR_PWD', description: 'Bad username or password' });
      assert.is(list.some((c) => c.code === 'UNSUPPORTED_MEDIA_TYPE'), emqxVersion === '5.8.9');
      const one = await api(app, 'GET', '/api/v5/error_codes/BAD_TOPIC');
      assert.is(one.statusCode, 200);
      assert.equal(one.json().code, 'BAD_TOPIC');
      assert.is((await api(app, 'GET', '/api/v5/error_codes/NO_SUCH_CODE')).statusCode, 400);
    } finally {
      await app.close();
    }
  }
});

test.run();
