// Schema → form fields (DESIGN.md §5): widget kinds from the dashboard-flavour types, units and
// keywords, enums, $ref and oneOf, overrides as data, and the value round trip of formBody.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setLocale } from '../../web/lib/i18n.ts';
import type { SchemaDocument } from '../../web/lib/schemas.ts';
import { isRate, splitBytesize, splitDuration } from '../../web/lib/units.ts';
import { formBody, formValues, MAX_UINT32, schemaFields } from '../../web/ui/schemaFields.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';

setLocale('en');
const hotconf = JSON.parse(schemaDocument('hotconf')) as SchemaDocument;
const byName = (fields: { name: string }[]) => Object.fromEntries(fields.map((f) => [f.name, f])) as Record<string, any>;

const doc: SchemaDocument = {
  info: { title: 't', version: '0.2.0' },
  paths: {},
  components: {
    schemas: {
      'ns.root': {
        type: 'object',
        properties: {
          type: { type: 'enum', symbols: ['http'] },
          timeout: { oneOf: [{ type: 'enum', symbols: ['infinity'] }, { type: 'duration' }], default: '15s' },
          size: { type: 'byteSize' },
          count: { type: 'integer', minimum: 0 },
          level: { type: 'enum', symbols: ['debug', 'info'] },
          password: { type: 'string', format: 'password' },
          tags: { type: 'array', items: { type: 'string' } },
          headers: { type: 'object', properties: { $name: { type: 'string' } } },
          ssl: { $ref: '#/components/schemas/ns.ssl' },
        },
      },
      'ns.ssl': { type: 'object', properties: { enable: { type: 'boolean' }, certfile: { type: 'string' } } },
    },
  },
};

test('each dashboard type gets its widget kind, refs become dotted names, discriminators are left out', () => {
  const fields = schemaFields(doc, 'ns.root');
  assert.equal(fields.map((f) => [f.name, f.kind]), [
    ['timeout', 'duration'], ['size', 'bytesize'], ['count', 'number'], ['level', 'select'], ['password', 'secret'],
    ['tags', 'list'], ['headers', 'code'], ['ssl.enable', 'switch'], ['ssl.certfile', 'cert'],
  ]);
  const f = byName(fields);
  assert.equal(f.timeout.keywords, ['infinity']);
  assert.equal(f.level.options, [{ value: 'debug', label: 'debug' }, { value: 'info', label: 'info' }]);
  assert.is(f.ssl, undefined, 'a struct is not a field itself');
  assert.is(f.type, undefined, 'the discriminator is not a field');
});

test('rules come from schema facts: ranges (32-bit unsigned by default), enums, duration and size syntax', () => {
  const f = byName(schemaFields(doc, 'ns.root'));
  const rule = (name: string, value: unknown) => f[name].rules.map((r: any) => r(value, {})).find(Boolean);
  assert.is(rule('count', MAX_UINT32), undefined);
  assert.is(rule('count', MAX_UINT32 + 1), 'the number range is 0 - 4294967295');
  assert.is(rule('count', -1), 'the number range is 0 - 4294967295');
  assert.is(rule('timeout', '15s'), undefined);
  assert.is(rule('timeout', 'infinity'), undefined);
  assert.is(rule('timeout', '15 parsecs'), 'Please enter a valid duration, e.g. 15s');
  assert.is(rule('size', '1MB'), undefined);
  assert.is(rule('size', 'lots'), 'Please enter a valid size, e.g. 1MB');
  assert.is(rule('level', 'verbose'), 'Please choose one of the listed values');
  const mqtt = byName(schemaFields(hotconf, 'broker.mqtt'));
  assert.is(mqtt.max_clientid_len.rules[0](22, {}), 'the number range is 23 - 65535');
  assert.equal(mqtt.max_subscriptions.keywords, ['infinity']);
  assert.is(mqtt.max_subscriptions.kind, 'number');
});

test('overrides are data: include, hidden, order, groups, labels, units, per-field changes; the schema is not changed', () => {
  const before = JSON.stringify(doc);
  const fields = schemaFields(doc, 'ns.root', {
    hidden: ['ssl'], include: ['timeout', 'size', 'count', 'level', 'ssl'], order: ['level'],
    groups: [{ title: 'g.limits', fields: ['size', 'count'] }],
    labels: { level: 'my.level' }, units: { timeout: ['s', 'm'] }, fields: { count: { help: 'my.help' } },
  });
  assert.equal(fields.map((f) => f.name), ['size', 'count', 'level', 'timeout']);
  const f = byName(fields);
  assert.is(f.size.section, 'g.limits');
  assert.is(f.level.label, 'my.level');
  assert.is(f.timeout.label, 'Timeout');
  assert.equal(f.timeout.units, ['s', 'm']);
  assert.is(f.count.help, 'my.help');
  assert.is(JSON.stringify(doc), before);
});

test('the hotconf mqtt, log and retainer components resolve through $ref and oneOf', () => {
  const log = byName(schemaFields(hotconf, 'emqx.log'));
  assert.is(log['console.level'].kind, 'select');
  assert.is(log['file.rotation_size'].kind, 'bytesize');
  assert.equal(log['file.rotation_size'].keywords, ['infinity']);
  const retainer = byName(schemaFields(hotconf, 'retainer.retainer'));
  assert.is(retainer['backend.type'], undefined, 'the one-symbol discriminator is not a field');
  assert.is(retainer['backend.storage_type'].kind, 'select');
  const sys = byName(schemaFields(hotconf, 'broker.sys_topics'));
  assert.equal(sys.sys_heartbeat_interval.keywords, ['disabled']);
  assert.is(sys['sys_event_messages.client_connected'].kind, 'switch');
});

test('formBody writes edited values back into a copy of the loaded object and keeps the rest', () => {
  const fields = schemaFields(doc, 'ns.root', { hidden: ['headers'] });
  const loaded = { type: 'http', timeout: '15s', size: '1MB', password: '******', headers: { a: 'b' }, ssl: { enable: false, depth: 10 } };
  const values = formValues(fields, loaded);
  assert.is(values['ssl.enable'], false);
  const body = formBody(fields, loaded, { ...values, timeout: '30s', 'ssl.enable': true });
  assert.equal(body, { type: 'http', timeout: '30s', size: '1MB', password: '******', headers: { a: 'b' }, ssl: { enable: true, depth: 10 } });
  assert.equal(loaded.ssl, { enable: false, depth: 10 }, 'the loaded object is not changed');
});

test('duration, size and rate strings are read as EMQX writes them', () => {
  assert.equal(splitDuration('15s'), { amount: '15', unit: 's' });
  assert.equal(splitDuration('1h30m'), { amount: '90', unit: 'm' });
  assert.equal(splitDuration('2h'), { amount: '2', unit: 'h' });
  assert.is(splitDuration('soon'), undefined);
  assert.equal(splitBytesize('1MB'), { amount: '1', unit: 'MB' });
  assert.equal(splitBytesize('512'), { amount: '512', unit: 'B' });
  assert.equal(splitBytesize('64kb'), { amount: '64', unit: 'KB' });
  // The window is optional, one second (emqx_limiter_schema.erl to_rate/1 at v5.5.1 and parse_rate/1 at 6.2.2).
  assert.ok(isRate('1000/s') && isRate('100KB/10s') && isRate('infinity') && isRate('1000') && isRate('0/s', true));
  assert.not.ok(isRate('fast/s') || isRate('1.5/s') || isRate('0/s') || isRate('10/0s') || isRate('infinity', true));
});

test.run();
