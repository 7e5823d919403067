// Schema registry journey in Chromium against the spawned simulator (issue #10 acceptance 2): a
// Protobuf schema created in the console decodes a sample in the try-it panel, and the result is
// the one `POST /rule_test` gives for the same input with the schema_decode SQL function.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import protobuf from 'protobufjs';
import { openConsole, type ConsoleSession, type WatchedPage } from '../helpers/browser.ts';
import { login, request, type SpawnedSimulator } from '../helpers/simulator.ts';

const SOURCE = `syntax = "proto3";
package demo;

message Person {
  string name = 1;
  int32 id = 2;
  repeated string tags = 3;
  bool active = 4;
}
`;
const SAMPLE = { name: 'Ann', id: 7, tags: ['a', 'b'], active: true };

let sim: SpawnedSimulator;
let w: WatchedPage;

let session: ConsoleSession | undefined;

test.before(async () => {
  session = await openConsole();
  ({ sim, w } = session);
});

test.after(() => session?.close());

/** The sample encoded by protobufjs itself, independent of the simulator, as hex. */
function sampleHex(): string {
  const Person = protobuf.parse(SOURCE).root.lookupType('demo.Person');
  return Buffer.from(Person.encode(Person.fromObject(SAMPLE)).finish()).toString('hex');
}

test('a Protobuf schema made in the console decodes a sample in the try-it panel as POST /rule_test does', async () => {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#/schema-registry`);
  await page.waitForSelector('[data-test=schema_registry-page] [data-test=state-empty]');
  await page.click('[data-test=schema_registry-create]');
  await page.waitForSelector('[data-test=schema-form]');
  assert.ok(await page.$('[data-test=schema-try-later]'), 'the panel waits for the schema to be saved');
  await page.fill('[data-test=schema-name]', 'person');
  await page.selectOption('[data-test=schema-type]', 'protobuf');
  await page.fill('[data-test=schema-description]', 'people');
  await page.fill('[data-test=schema-source-input]', SOURCE);
  await page.click('[data-test=schema-save]');
  await page.getByText('Schema created', { exact: true }).waitFor();
  await page.waitForSelector('[data-test=schema-try]');
  assert.is(new URL(page.url()).hash, '#/schema-registry/detail/person');

  // The schema really exists on the broker, as a Protobuf schema with our source.
  const token = await login(sim.baseUrl);
  const stored = await request(sim.baseUrl, 'GET', '/api/v5/schema_registry/person', { token });
  assert.is(stored.status, 200);
  assert.is(stored.json.type, 'protobuf');
  assert.is(stored.json.source, SOURCE);

  const hex = sampleHex();
  await page.selectOption('[data-test=try-mode]', 'decode');
  await page.selectOption('[data-test=try-format]', 'hex');
  await page.fill('[data-test=try-message-type]', 'demo.Person');
  // Spaces are allowed in the hex text; the panel strips them.
  await page.fill('[data-test=try-payload]', hex.match(/../g)!.join(' '));
  await page.click('[data-test=try-run]');
  await page.waitForSelector('[data-test=try-result-text]');
  assert.not.ok(await page.$('[data-test=try-result].failed'), await page.textContent('[data-test=try-result]') ?? '');
  const shown = JSON.parse((await page.textContent('[data-test=try-result-text]')) ?? 'null');

  const direct = await request(sim.baseUrl, 'POST', '/api/v5/rule_test', {
    token,
    body: {
      sql: `SELECT schema_decode('person', hexstr2bin(payload), 'demo.Person') AS d FROM "in/#"`,
      context: { event_type: 'message_publish', topic: 'in/1', payload: hex },
    },
  });
  assert.is(direct.status, 200, direct.text);
  assert.equal(shown, direct.json.d);
  assert.equal(shown, SAMPLE);

  // A wrong message type is an error in the panel, as it is for the rule tester.
  await page.fill('[data-test=try-message-type]', 'demo.Nobody');
  await page.click('[data-test=try-run]');
  await page.waitForSelector('[data-test=try-result].failed');
  const refused = await request(sim.baseUrl, 'POST', '/api/v5/rule_test', {
    token,
    body: { sql: `SELECT schema_decode('person', hexstr2bin(payload), 'demo.Nobody') AS d FROM "in/#"`, context: { event_type: 'message_publish', topic: 'in/1', payload: hex } },
  });
  assert.is(refused.status, 400);
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
  assert.equal(w.dialogs, []);
});

test.run();
