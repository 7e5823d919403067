// Help on every config setting (issue #18): every field of every config page declaration has a
// description in zh and en; the MQTT page shows the broker's default and the unit under a field,
// and "reset to default" puts the default into the field and into the saved body.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { missingLocales, setLocale, t } from '../../web/lib/i18n.ts';
import { clearSchemas } from '../../web/lib/schemas.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import type { ConfigPageDecl } from '../../web/ui/ConfigPage.tsx';
import { schemaFields, type SchemaField } from '../../web/ui/schemaFields.ts';
import { helpPath, helpTexts } from '../../web/features/system/config/help.ts';
import { listenerPage, TYPES } from '../../web/features/system/config/listeners.ts';
import { basicConfigPages, limiterPage, logPage, monitoringPages, mqttPages } from '../../web/features/system/config/pages.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, microtasks, mount, reset, submit, text, waitFor } from '../helpers/render.tsx';

const hotconf = JSON.parse(schemaDocument('hotconf'));
const pages: [string, ConfigPageDecl][] = [
  ...Object.entries(mqttPages),
  ['/log', logPage],
  ...Object.entries(monitoringPages),
  ['/limiter', limiterPage],
  ...Object.entries(basicConfigPages).map(([tab, decl]): [string, ConfigPageDecl] => [`/basic-config?tab=${tab}`, decl]),
  ...TYPES.map((type): [string, ConfigPageDecl] => [`/listener/detail/${type}:default`, listenerPage(`${type}:default`)]),
];

/** Every field a section can show: capability-gated ones (audit, OpenTelemetry) included. */
function sectionFields(section: ConfigPageDecl['sections'][number]): SchemaField[] {
  const { requires: _gated, ...overrides } = section.overrides ?? {};
  return [...(section.component ? schemaFields(hotconf, section.component, overrides) : []), ...(section.fields ?? [])];
}

const CJK = /[\u4e00-\u9fff]/;

test('every field of every config page has a description in both zh and en', async () => {
  const missing: string[] = [];
  let count = 0;
  for (const [page, decl] of pages) {
    for (const section of decl.sections) {
      if (!section.help) {
        missing.push(`${page} ${section.name}: the section declares no help`);
        continue;
      }
      const lookup = await section.help();
      for (const field of sectionFields(section)) {
        count++;
        const help = lookup(field.name);
        if (!help) {
          missing.push(`${page} ${field.name}: no help`);
          continue;
        }
        if (missingLocales(help.text).length) missing.push(`${page} ${field.name}: no ${missingLocales(help.text).join(' and ')} text`);
        setLocale('zh');
        const zh = t(help.text);
        setLocale('en');
        const en = t(help.text);
        if (!CJK.test(zh)) missing.push(`${page} ${field.name}: the zh text is not Chinese`);
        if (CJK.test(en) || en === zh) missing.push(`${page} ${field.name}: the en text is not English`);
        if (help.unit && missingLocales(help.unit).length) missing.push(`${page} ${field.name}: unit ${help.unit} untranslated`);
      }
    }
  }
  assert.equal(missing, []);
  assert.ok(count > 150, `walked ${count} fields`);
});

test('every help entry belongs to a field some config page shows', async () => {
  const used = new Set<string>();
  for (const [, decl] of pages) {
    for (const section of decl.sections) {
      const lookup = await section.help!();
      for (const field of sectionFields(section)) used.add(lookup(field.name)!.text);
    }
  }
  const declared = Object.entries(helpTexts).flatMap(([root, table]) => Object.keys(table).map((name) => `configHelp.${root}.${name}`));
  assert.equal(declared.filter((key) => !used.has(key)), []);
  assert.is(helpPath('listeners', 'ssl_options.verify'), 'tls.verify', 'TLS blocks share one set of texts');
});

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
// Values differing from the broker defaults (1MB, 15s, disabled) except idle_timeout.
const zone = {
  mqtt: { idle_timeout: '15s', max_packet_size: '4MB', max_clientid_len: 65535, max_topic_levels: 128, server_keepalive: 30,
    shared_subscription_strategy: 'random', max_inflight: 32, upgrade_qos: false },
};
let restore = () => {};

async function open(path: string, routes: Parameters<typeof fakeApi>[0], locale: 'en' | 'zh' = 'en') {
  reset(path);
  setLocale(locale);
  clearSchemas();
  await saveUser({ username: 'admin', token: 'tok' });
  await restoreSession();
  const api = fakeApi({ 'GET /alarms': alarms, 'GET /schemas/hotconf': { body: hotconf }, ...routes });
  restore = api.restore;
  await mount(<App />);
  return api;
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT');
const field = (name: string) => byTest<HTMLInputElement>(`field-${name}`);

test.after.each(() => {
  cleanup();
  restore();
  setLocale('en');
});

test('the MQTT page shows each field\'s description, the broker default and the unit', async () => {
  await open('/mqtt/general', { 'GET /configs/global_zone': { body: zone } });
  await waitFor(() => byTest('help-max_packet_size'));
  assert.match(byTest('help-max_packet_size-text')!.textContent!, /Largest single MQTT packet/);
  assert.is(byTest('help-max_packet_size-default')!.textContent, 'Default: 1MB');
  assert.is(byTest('help-max_packet_size-unit')!.textContent, 'Unit: size (B, KB, MB, GB)');
  assert.is(byTest('help-server_keepalive-default')!.textContent, 'Default: disabled');
  assert.is(byTest('help-server_keepalive-unit')!.textContent, 'Unit: seconds');
  assert.is(byTest('help-retain_available-default')!.textContent, 'Default: on');
  assert.is(byTest('help-shared_subscription_strategy-default')!.textContent, 'Default: round_robin');
  // The widget names its help, so a screen reader reads it with the field.
  const help = byTest('help-max_packet_size')!;
  assert.ok(help.id, 'the help line has an id');
  assert.ok(field('max_packet_size')!.getAttribute('aria-describedby')!.split(' ').includes(help.id), 'the help line describes the input');
  // Every field shown on the page carries a help line.
  const names = [...document.querySelectorAll('[data-test=config-mqtt-general-form] [name]')].map((el) => el.getAttribute('name'));
  assert.ok(names.length > 15, `${names.length} fields`);
  assert.equal(names.filter((name) => !byTest(`help-${name}-text`)), []);
});

test('reset to default appears only on changed fields and puts the broker default into the saved body', async () => {
  const api = await open('/mqtt/general', { 'GET /configs/global_zone': { body: zone }, 'PUT /configs/global_zone': (c) => ({ body: c.body }) });
  await waitFor(() => byTest('reset-max_packet_size'));
  assert.not.ok(byTest('reset-idle_timeout'), 'idle_timeout already has its default');
  const button = byTest<HTMLButtonElement>('reset-max_packet_size')!;
  assert.is(button.tagName, 'BUTTON');
  assert.is(button.type, 'button', 'a reset does not submit the form');
  assert.is(button.getAttribute('aria-label'), 'Reset Max Packet Size to its default');
  assert.is(field('max_packet_size')!.value, '4');
  await click(button);
  await waitFor(() => field('max_packet_size')!.value === '1');
  assert.is(byTest<HTMLSelectElement>('field-max_packet_size-unit')!.value, 'MB');
  assert.not.ok(byTest('reset-max_packet_size'), 'the button goes once the default is back');
  await click(byTest('reset-shared_subscription_strategy'));
  await click(byTest('reset-server_keepalive'));
  assert.is(puts(api.calls).length, 0, 'resetting a field saves nothing by itself');
  await submit(byTest('config-mqtt-general-form'));
  await waitFor(() => puts(api.calls).length === 1);
  assert.equal(puts(api.calls)[0].body, { mqtt: { ...zone.mqtt, max_packet_size: '1MB', shared_subscription_strategy: 'round_robin', server_keepalive: 'disabled' } });
});

const RENDERED: [string, string[]][] = [
  ['/mqtt/session', ['/configs/global_zone']],
  ['/mqtt/retainer', ['/mqtt/retainer']],
  ['/mqtt/system-topic', ['/configs/sys_topics']],
  ['/log', ['/configs/log']],
  ['/monitoring/alarm-settings', ['/configs/alarm', '/configs/sysmon']],
  ['/monitoring/integration', ['/prometheus', '/opentelemetry']],
  ['/limiter', ['/configs/limiter']],
  ['/basic-config?tab=zone', ['/configs/global_zone']],
  ['/basic-config?tab=dashboard', ['/configs/dashboard']],
  ['/listener/detail/wss%3Adefault', ['/listeners/wss:default']],
];

for (const [path, endpoints] of RENDERED) {
  test(`${path}: every field shown carries its help line`, async () => {
    await open(path, Object.fromEntries(endpoints.map((e) => [`GET ${e}`, { body: e.startsWith('/listeners/') ? { id: 'wss:default', type: 'wss', ssl_options: {} } : {} }])));
    await waitFor(() => document.querySelector('.field-help'));
    const names = [...document.querySelectorAll('[data-test=config-page] form [name]')].map((el) => el.getAttribute('name'));
    assert.ok(names.length > 0);
    assert.equal(names.filter((name) => !byTest(`help-${name}-text`)), []);
  });
}

test('after a reset the field shows the default in the same update that takes the button away', async () => {
  await open('/mqtt/general', { 'GET /configs/global_zone': { body: zone } });
  const button = await waitFor(() => byTest<HTMLButtonElement>('reset-max_packet_size'));
  assert.is(field('max_packet_size')!.value, '4');
  // Clicked outside act(): only what the click itself renders, before any later frame or timer.
  button.click();
  await microtasks();
  assert.not.ok(byTest('reset-max_packet_size'), 'the button is gone');
  assert.is(field('max_packet_size')!.value, '1', 'the field shows the default with it');
});

test('in Chinese the help, default and unit read in Chinese', async () => {
  await open('/mqtt/general', { 'GET /configs/global_zone': { body: zone } }, 'zh');
  await waitFor(() => byTest('help-max_packet_size'));
  assert.match(byTest('help-max_packet_size-text')!.textContent!, CJK);
  assert.is(byTest('help-max_packet_size-default')!.textContent, '默认值：1MB');
  assert.is(byTest('help-max_packet_size-unit')!.textContent, '单位：大小（B、KB、MB、GB）');
  assert.is(byTest('reset-max_packet_size')!.textContent, '恢复默认值');
});

test('hand-declared listener fields reset to the listener defaults; a bind has none', async () => {
  const detail = { id: 'tcp:default', type: 'tcp', name: 'default', enable: true, bind: '0.0.0.0:1883', acceptors: 8, max_connections: 'infinity',
    mountpoint: '', enable_authn: true, access_rules: ['allow all'], proxy_protocol: false, proxy_protocol_timeout: '3s',
    tcp_options: { backlog: 1024, send_timeout: '15s', buffer: '4KB' } };
  const api = await open('/listener/detail/tcp%3Adefault', { 'GET /listeners/tcp:default': { body: detail }, 'PUT /listeners/tcp:default': (c) => ({ body: c.body }) });
  await waitFor(() => byTest('reset-acceptors'));
  assert.is(byTest('help-acceptors-default')!.textContent, 'Default: 16');
  assert.ok(byTest('help-bind-text'), 'the bind is described');
  assert.not.ok(byTest('help-bind-default'), 'a listener\'s bind has no default to reset to');
  assert.not.ok(byTest('reset-max_connections'));
  await click(byTest('reset-acceptors'));
  await waitFor(() => field('acceptors')!.value === '16');
  await submit(byTest('config-listener-form'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => puts(api.calls).length === 1);
  assert.is((puts(api.calls)[0].body as { acceptors: number }).acceptors, 16);
  assert.ok(text().includes('Number of processes accepting new connections.'));
});

test.run();
