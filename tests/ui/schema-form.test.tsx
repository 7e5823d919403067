// SchemaForm rendered from the generated hotconf schema: loaded values appear in the config
// widgets, one change goes out as exactly that change, a secret left alone stays "******",
// the unit widgets keep EMQX strings, and server errors land at the field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../web/lib/api.ts';
import type { SchemaDocument } from '../../web/lib/schemas.ts';
import { SchemaForm } from '../../web/ui/SchemaForm.tsx';
import { schemaFields } from '../../web/ui/schemaFields.ts';
import { Form } from '../../web/ui/Form.tsx';
import { tlsFields } from '../../web/ui/tls.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';
import { byTest, cleanup, mount, reset, submit, type, waitFor } from '../helpers/render.tsx';
import { act } from 'preact/test-utils';

const hotconf = JSON.parse(schemaDocument('hotconf')) as SchemaDocument;
const mqtt = {
  idle_timeout: '15s', max_packet_size: '1MB', max_clientid_len: 65535, max_topic_levels: 128, max_topic_alias: 65535,
  retain_available: true, wildcard_subscription: true, shared_subscription: true, shared_subscription_strategy: 'round_robin',
  exclusive_subscription: false, ignore_loop_deliver: false, strict_mode: false, response_information: '', server_keepalive: 'disabled',
  keepalive_multiplier: 1.5, retry_interval: '30s', use_username_as_clientid: false, peer_cert_as_username: 'disabled',
  peer_cert_as_clientid: 'disabled', session_expiry_interval: '2h', max_awaiting_rel: 100, max_qos_allowed: 2,
  mqueue_priorities: 'disabled', mqueue_default_priority: 'lowest', mqueue_store_qos0: true, max_mqueue_len: 1000,
  max_inflight: 32, max_subscriptions: 'infinity', upgrade_qos: false, await_rel_timeout: '300s', unknown_future_key: 7,
};
const input = (name: string) => byTest<HTMLInputElement>(`field-${name}`)!;
const unit = (name: string) => byTest<HTMLSelectElement>(`field-${name}-unit`)!;
async function choose(el: HTMLSelectElement, value: string) {
  await act(async () => {
    el.value = value;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

test.after.each(cleanup);

test('the loaded mqtt config fills the widgets; changing one field sends everything else unchanged', async () => {
  reset('/');
  const sent: Record<string, unknown>[] = [];
  await mount(<SchemaForm doc={hotconf} component="broker.mqtt" value={mqtt} test="f" onSubmit={async (body) => sent.push(body)} />);
  assert.is(input('max_packet_size').value, '1');
  assert.is(unit('max_packet_size').value, 'MB');
  assert.is(input('idle_timeout').value, '15');
  assert.is(unit('idle_timeout').value, 's');
  assert.is(unit('max_subscriptions').value, 'infinity');
  assert.ok(input('max_subscriptions').disabled);
  assert.is(byTest<HTMLSelectElement>('field-shared_subscription_strategy')!.value, 'round_robin');
  await type(input('max_packet_size'), '2');
  await choose(unit('idle_timeout'), 'm');
  await submit(byTest('f'));
  await waitFor(() => sent.length === 1);
  assert.equal(sent[0], { ...mqtt, max_packet_size: '2MB', idle_timeout: '15m' });
});

test('duration and number keywords switch in the unit select; bad values are stopped before sending', async () => {
  reset('/');
  const sent: Record<string, unknown>[] = [];
  await mount(<SchemaForm doc={hotconf} component="broker.mqtt" value={mqtt} test="f" onSubmit={async (body) => sent.push(body)} />);
  await choose(unit('idle_timeout'), 'infinity');
  await choose(unit('max_subscriptions'), 'value');
  await type(input('max_subscriptions'), '4294967296');
  await type(input('max_clientid_len'), '10');
  await submit(byTest('f'));
  assert.is(byTest('error-max_subscriptions')!.textContent, 'the number range is 1 - 4294967295');
  assert.is(byTest('error-max_clientid_len')!.textContent, 'the number range is 23 - 65535');
  assert.is(sent.length, 0);
  await type(input('max_subscriptions'), '100');
  await type(input('max_clientid_len'), '100');
  await submit(byTest('f'));
  await waitFor(() => sent.length === 1);
  assert.is(sent[0].idle_timeout, 'infinity');
  assert.is(sent[0].max_subscriptions, 100);
});

test('an untouched secret goes back as ****** and a typed one as typed; a server 400 with a path shows at the field', async () => {
  reset('/');
  const doc: SchemaDocument = { info: { title: 't', version: '0.2.0' }, paths: {}, components: { schemas: {
    'x.conn': { type: 'object', properties: { server: { type: 'string' }, password: { type: 'string', format: 'password' }, pool_size: { type: 'integer', minimum: 1 } } },
  } } };
  const sent: Record<string, unknown>[] = [];
  let fail = true;
  await mount(<SchemaForm doc={doc} component="x.conn" value={{ server: 'db:3306', password: '******', pool_size: 8 }} test="f"
    onSubmit={async (body) => {
      sent.push(body);
      if (fail) throw new ApiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: 'root.pool_size', reason: 'pool too large' }));
    }} />);
  await type(input('pool_size'), '9');
  await submit(byTest('f'));
  await waitFor(() => byTest('error-pool_size'));
// Changed with issue #34: server text only under Details, the sentence from the error catalogue.
  assert.is(byTest('error-pool_size')!.textContent, 'The value of pool_size is not valid');
  assert.equal(sent[0], { server: 'db:3306', password: '******', pool_size: 9 });
  fail = false;
  await type(input('password'), 'n3w-secret');
  await submit(byTest('f'));
  await waitFor(() => sent.length === 2);
  assert.is(sent[1].password, 'n3w-secret');
});

test('a certificate file must have an allowed extension; a good one fills the PEM text', async () => {
  reset('/');
  await mount(<Form fields={tlsFields('ssl', { server: true })} initial={{ 'ssl.verify': 'verify_none' }} test="f" onSubmit={async () => undefined} />);
  const pick = async (name: string, content: string) => {
    const picker = byTest<HTMLInputElement>('field-ssl.certfile-file')!;
    Object.defineProperty(picker, 'files', { value: [new File([content], name)], configurable: true });
    await act(async () => {
      picker.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 10));
    });
  };
  await pick('cert.txt', 'x');
  assert.is(byTest('field-ssl.certfile-file-error')!.textContent, 'Please upload a file with extension .pem, .crt, .key');
  await pick('cert.pem', '-----BEGIN CERTIFICATE-----');
  await waitFor(() => byTest<HTMLTextAreaElement>('field-ssl.certfile')!.value === '-----BEGIN CERTIFICATE-----');
  assert.is(byTest('field-ssl.certfile-file-error'), null);
  await submit(byTest('f'));
  assert.is(byTest('error-ssl.keyfile')!.textContent, 'Missing Cert or Key');
  assert.is(byTest('error-ssl.certfile'), null);
});

test('a list field keeps the lines being typed and sends the non-empty ones', async () => {
  reset('/');
  const sent: Record<string, unknown>[] = [];
  await mount(<Form fields={[{ name: 'rules', label: 'Rules', kind: 'list' }]} initial={{ rules: ['allow all'] }} test="f" onSubmit={async (v) => sent.push(v)} />);
  await type(byTest('field-rules'), 'allow all\n');
  assert.is(byTest<HTMLTextAreaElement>('field-rules')!.value, 'allow all\n');
  await type(byTest('field-rules'), 'allow all\ndeny 10.0.0.1\n\n');
  await submit(byTest('f'));
  await waitFor(() => sent.length === 1);
  assert.equal(sent[0].rules, ['allow all', 'deny 10.0.0.1']);
});

test('schema fields carry the broker default; without a help lookup the form shows no help lines', async () => {
  const fields = schemaFields(hotconf, 'broker.mqtt');
  const byName = Object.fromEntries(fields.map((f) => [f.name, f.default]));
  assert.is(byName.max_packet_size, '1MB');
  assert.is(byName.server_keepalive, 'disabled');
  assert.is(byName.keepalive_multiplier, 1.5);
  assert.is(byName.retain_available, true);
  reset('/');
  await mount(<SchemaForm doc={hotconf} component="broker.mqtt" value={{ ...mqtt, max_packet_size: '2MB' }} test="f" onSubmit={async () => undefined} />);
  assert.is(document.querySelectorAll('.field-help').length, 0);
  assert.not.ok(byTest('reset-max_packet_size'));
});

test('with a help lookup each field shows description, default and unit; reset writes the default in the widget\'s form', async () => {
  reset('/');
  const sent: Record<string, unknown>[] = [];
  const help = (name: string) => (name === 'mqtt_missing' ? undefined : { text: `about ${name}`, ...(name === 'max_inflight' ? { unit: 'messages', default: 99 } : {}) });
  await mount(<SchemaForm doc={hotconf} component="broker.mqtt" value={{ ...mqtt, max_packet_size: '2MB', mqueue_priorities: { a: 1 } }} test="f" help={help}
    onSubmit={async (body) => sent.push(body)} />);
  assert.is(byTest('help-max_packet_size-text')!.textContent, 'about max_packet_size');
  assert.is(byTest('help-max_packet_size-default')!.textContent, 'Default: 1MB');
  // The schema's default wins over the lookup's; the lookup's unit is shown as given.
  assert.is(byTest('help-max_inflight-default')!.textContent, 'Default: 32');
  assert.is(byTest('help-max_inflight-unit')!.textContent, 'Unit: messages');
  assert.not.ok(byTest('reset-idle_timeout'), 'a field at its default offers no reset');
  await act(async () => byTest<HTMLButtonElement>('reset-max_packet_size')!.click());
  assert.is(input('max_packet_size').value, '1');
  assert.is(unit('max_packet_size').value, 'MB');
  await act(async () => byTest<HTMLButtonElement>('reset-mqueue_priorities')!.click());
  await submit(byTest('f'));
  await waitFor(() => sent.length === 1);
  assert.is(sent[0].max_packet_size, '1MB');
  assert.is(sent[0].mqueue_priorities, 'disabled');
});

test.run();
