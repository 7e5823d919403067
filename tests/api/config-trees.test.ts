// Every config GET answers the fields of its release's tree (issue #31, acceptance 2): the field
// names at each level of the answer equal those of the tree (fixtures/profiles/<version>/config.json,
// made from the broker's schema dumps), less what a fresh broker leaves out (hidden, deprecated,
// `required => {false, recursively}` fields not given). Six profiles in this one process.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { treeRoot, type TreeField } from '../../simulator/store/config/release-tree.ts';
import { PROFILES, parseProfile } from '../../simulator/store/profile.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

/** The config GETs and the tree root each answers. */
const GETS: [string, string][] = [
  ['/configs/sys_topics', 'sys_topics'], ['/configs/log', 'log'], ['/configs/alarm', 'alarm'], ['/configs/sysmon', 'sysmon'],
  ['/configs/broker', 'broker'], ['/configs/file_transfer', 'file_transfer'], ['/mqtt/retainer', 'retainer'], ['/opentelemetry', 'opentelemetry'],
];

const shown = (f: TreeField) => !f.hidden && !f.deprecated && !f.optional;
const structFields = (f: TreeField): TreeField[] | undefined => (f.type.startsWith('Struct(') && f.refs?.length === 1 ? f.refs[0].fields : undefined);

/** The paths where the answer and the tree differ: `path +name` (the tree has it) or `path -name` (it does not). */
function differences(fields: TreeField[], value: Record<string, unknown>, path: string): string[] {
  const out: string[] = [];
  const names = new Set(Object.keys(value));
  for (const f of fields) {
    if (!names.has(f.text)) {
      if (shown(f) && (f.default !== undefined || structFields(f))) out.push(`${path} +${f.text}`);
      continue;
    }
    const sub = structFields(f);
    const v = value[f.text];
    if (sub && v && typeof v === 'object' && !Array.isArray(v)) out.push(...differences(sub, v as Record<string, unknown>, `${path}.${f.text}`));
  }
  const known = new Set(fields.flatMap((f) => [f.text, ...(f.aliases ?? [])]));
  for (const name of names) if (!known.has(name)) out.push(`${path} -${name}`);
  return out;
}

for (const { version, edition } of PROFILES) {
  const id = `${version}-${edition}`;
  test(`${id}: every config GET answers its release's tree`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition });
    const token = await login(app);
    const index = parseProfile(version, edition).routes();
    for (const [url, root] of GETS) {
      const res = await api(app, 'GET', `/api/v5${url}`, { token });
      const tree = treeRoot(version, root);
      // A GET the release's endpoint index lacks (file_transfer is ?ROOT_KEYS_EE, emqx_mgmt_api_configs.erl).
      if (!index.has(`GET ${url}`) || !tree) {
        assert.is(res.statusCode, 404, `${id} ${url}: not in the release`);
        continue;
      }
      assert.is(res.statusCode, 200, `${id} ${url}`);
      // The dumps are Enterprise builds: emqx_enterprise_schema.erl adds the audit log handler,
      // which a Community broker does not have.
      const fields = edition === 'ce' && root === 'log' ? tree.refs![0].fields.filter((f) => f.text !== 'audit') : tree.refs![0].fields;
      assert.equal(differences(fields, res.json(), root), [], `${id} ${url}`);
    }
    await app.close();
  });
}

test('5.8.9 answers the 5.8 fields (changes/ at e5.8.9 over the 5.8.1 dump)', async () => {
  const app = await buildTestApp({ emqxVersion: '5.8.9', edition: 'ee' });
  const token = await login(app);
  const get = async (url: string) => (await api(app, 'GET', `/api/v5${url}`, { token })).json();
  const log = await get('/configs/log');
  assert.ok('timestamp_format' in log.console && 'payload_encode' in log.console, JSON.stringify(log.console));
  const retainer = await get('/mqtt/retainer');
  for (const f of ['msg_expiry_interval_override', 'allow_never_expire', 'max_publish_rate']) assert.ok(f in retainer, f);
  assert.is((await get('/prometheus')).push_gateway.method, 'put');
  const tcp = await get('/listeners/tcp:default');
  assert.ok('nolinger' in tcp.tcp_options, JSON.stringify(tcp.tcp_options));
  assert.is((await api(app, 'GET', '/api/v5/configs/broker', { token })).statusCode, 200);
  // A fresh broker's dashboard listener (apps/emqx_dashboard/etc/emqx_dashboard.conf: bind = 18083).
  assert.is((await get('/configs/dashboard')).listeners.http.bind, 18083);
  await app.close();
  const old = await buildTestApp({ emqxVersion: '5.5.1', edition: 'ee' });
  const oldToken = await login(old);
  assert.not.ok('timestamp_format' in (await api(old, 'GET', '/api/v5/configs/log', { token: oldToken })).json().console);
  assert.is((await api(old, 'GET', '/api/v5/configs/broker', { token: oldToken })).statusCode, 404);
  await old.close();
});

test.run();
