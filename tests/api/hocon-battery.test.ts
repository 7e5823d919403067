// The hocon battery (issue #31, acceptance 4): config PUTs whose outcome hocon decides, sent to
// every profile in this one process, each answered as the broker of that release answers it: the
// status, the code, every problem listed, the path and the release's wording. Each case names the
// source that decides it (the hocon library of the tag: 0.40.4 at e5.5.1, 0.44.0 at e5.8.9, 0.45.x
// from 5.10, see store/profile.ts HOCON; emqx_schema.erl at the tag).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Dialect } from '../../simulator/lib/hocon-check/from-string.ts';
import { HOCON, PROFILES, type EmqxVersion } from '../../simulator/store/profile.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

type Problem = Record<string, unknown>;
/** `ok`, or the problems the 400 BAD_REQUEST message lists (one map, or a list of several). */
type Outcome = 'ok' | Problem | Problem[];

interface Case {
  what: string;
  /** The source that decides the outcome. */
  source: string;
  url: string;
  body: unknown;
  releases?: readonly EmqxVersion[];
  expect: (d: Dialect) => Outcome;
}

const problem = (path: string, reason: unknown, value: unknown): Problem => ({ kind: 'validation_error', path, reason, value });

/**
 * A text emqx_schema's converter refuses: e5.5.1 answers `{error, Str}`, which hocon 0.40.4
 * ignores (convert/2 keeps the text) so the type check names the type, `emqx_schema:duration`
 * (typerefl_trans.erl `~p:~p`); from 5.8 the converter says "Not a valid duration" and hocon
 * 0.44.0 reports that reason (hocon_tconf.erl catches `{hocon_schema_builtin, Error}`).
 */
const refused = (d: Dialect, kind: 'duration' | 'bytesize', path: string, value: string): Problem =>
  problem(path, d.hocon === '0.40' ? { expected: `emqx_schema:${kind}` } : `Not a valid ${kind}`, value);

/** emqx_schema.erl to_percent/1 answers `{error, Str}` on every release: 0.40 names the type, 0.44 reports the text. */
const badPercent = (d: Dialect, path: string, value: string): Problem =>
  problem(path, d.hocon === '0.40' ? { expected: 'emqx_schema:percent' } : value, value);

const ALARM = '/configs/alarm';
const RETAINER = '/mqtt/retainer';
const SYSMON = '/configs/sysmon';
const ZONE = '/configs/global_zone';

const CASES: Case[] = [
  // Durations.
  { what: 'a duration with a space', source: 'hocon_postprocess.erl do_duration/2 (no space in `^([0-9.]+)(f|…|ms)$`), emqx_schema.erl to_duration/1',
    url: ALARM, body: { validity_period: '10 s' }, expect: (d) => refused(d, 'duration', 'root.validity_period', '10 s') },
  { what: 'digits alone as a duration (milliseconds)', source: 'emqx_schema.erl to_duration/1: not a hocon duration, then to_integer/1',
    url: ALARM, body: { validity_period: '60000' }, expect: () => 'ok' },
  { what: 'a fortnight', source: 'hocon_postprocess.erl do_duration/2: `f|F` is 14 days',
    url: ALARM, body: { validity_period: '1f' }, expect: () => 'ok' },
  { what: 'a decimal duration', source: 'hocon_postprocess.erl get_decimal/1 and round/1',
    url: ALARM, body: { validity_period: '1.5h' }, expect: () => 'ok' },
  // Byte sizes.
  ...['1G', '1.5MB', '1TB', '1Gb'].map((text): Case => ({
    what: `the byte size ${text}`, source: 'hocon_postprocess.erl do_bytesize/1 `^\\s*([0-9]+)(b|B|kb|KB|mb|MB|gb|GB)$` (0.44.0; 0.40.4 without b|B), emqx_schema.erl to_bytesize/1',
    url: RETAINER, body: { max_payload_size: text }, expect: (d) => refused(d, 'bytesize', 'root.max_payload_size', text),
  })),
  { what: 'a byte size in bytes (`b`)', source: 'hocon_postprocess.erl do_bytesize/1: `b|B` added in hocon 0.44.0, absent at 0.40.4',
    url: RETAINER, body: { max_payload_size: '512b' }, expect: (d) => (d.hocon === '0.40' ? refused(d, 'bytesize', 'root.max_payload_size', '512b') : 'ok') },
  { what: 'max_packet_size 1GB', source: 'emqx_schema.erl validate_packet_size/1 at e5.5.1 (256M), validate_max_packet_size/1 from e5.8.9 (?MAX_INT_MQTT_PACKET_SIZE 268435455)',
    url: ZONE, body: { mqtt: { max_packet_size: '1GB' } },
    expect: (d) => problem('mqtt.max_packet_size', d.hocon === '0.40'
      ? { maximum: '256M', reason: 'max_mqtt_packet_size_too_large' }
      : { cause: 'max_mqtt_packet_size_too_large', maximum: 268435455 }, 1073741824) },
  // Percents.
  { what: 'a percent over 100', source: 'emqx_schema.erl to_percent/1: between 0.0 and 1.0, else {error, Str}',
    url: SYSMON, body: { os: { cpu_high_watermark: '180%' } }, expect: (d) => badPercent(d, 'root.os.cpu_high_watermark', '180%') },
  { what: 'a percent without %', source: 'hocon_postprocess.erl do_percent/1 `([0-9.]+)(%)$` leaves "80" a text, so to_percent/1 refuses it',
    url: SYSMON, body: { os: { cpu_high_watermark: '80' } }, expect: (d) => badPercent(d, 'root.os.cpu_high_watermark', '80') },
  { what: 'a percent', source: 'hocon_postprocess.erl do_percent/1',
    url: SYSMON, body: { os: { cpu_high_watermark: '75%' } }, expect: () => 'ok' },
  // Strings to numbers and booleans.
  { what: '"true" for a boolean', source: 'typerefl.erl to_boolean/1 (string:trim, "true" | "false")',
    url: '/configs/sys_topics', body: { sys_event_messages: { client_connected: 'true' } }, expect: () => 'ok' },
  { what: '"yes" for a boolean', source: 'typerefl.erl to_boolean/1 "Unable to parse boolean value"; hocon 0.40.4 names the type `boolean()` instead',
    url: '/configs/sys_topics', body: { sys_event_messages: { client_connected: 'yes' } },
    expect: (d) => problem('root.sys_event_messages.client_connected', d.hocon === '0.40' ? { expected: 'boolean()' } : 'Unable to parse boolean value', 'yes') },
  { what: '"10" for an integer', source: 'typerefl string_to_term/1, the converter of a range (1..3000)',
    url: ALARM, body: { size_limit: '10' }, expect: () => 'ok' },
  { what: 'an integer out of range', source: 'hocon_tconf.erl builtin_validators/1: `#{expected => readable_type(Type)}`, typerefl range name `~p..~p`',
    url: ALARM, body: { size_limit: 5000 }, expect: () => problem('root.size_limit', { expected: '1..3000' }, 5000) },
  { what: 'a positive integer below 1', source: 'typerefl alias/4 names an alias `Name()`: emqx_schema_tests.erl ssl_opts_cert_depth_test expects `#{expected => "non_neg_integer()"}` at v5.5.1, e5.8.9 and 6.2.2; acceptors is `pos_integer()` (emqx_schema.erl)',
    url: '/listeners/tcp:default', body: { id: 'tcp:default', type: 'tcp', acceptors: 0 }, expect: () => problem('root.acceptors', { expected: 'pos_integer()' }, 0) },
  { what: 'a keepalive multiplier as text', source: 'typerefl.erl to_float/1 through hocon_schema_builtin convert/2',
    url: ZONE, body: { mqtt: { keepalive_multiplier: '2.5' } }, expect: () => 'ok' },
  // Unions and enums.
  { what: 'infinity or an integer', source: 'emqx_schema.erl max_subscriptions `hoconsc:union([infinity, non_neg_integer()])`',
    url: ZONE, body: { mqtt: { max_subscriptions: 'infinity' } }, expect: () => 'ok' },
  { what: 'disabled or a duration', source: 'emqx_schema.erl sysmon long_gc `hoconsc:union([disabled, duration()])`',
    url: SYSMON, body: { vm: { long_gc: '100ms' } }, expect: () => 'ok' },
  { what: 'an enum symbol the VM does not know', source: 'hocon_schema_builtin.erl convert/2 binary_to_existing_atom fails: check_enum_symbol/2 `unable_to_convert_to_enum_symbol`',
    url: '/configs/log', body: { console: { level: 'loud' } }, expect: () => problem('root.console.level', 'unable_to_convert_to_enum_symbol', 'loud') },
  // null, unknown fields, every problem.
  { what: 'null means omitted', source: 'hocon_tconf.erl do_map2/3 drop_nulls/2',
    url: ALARM, body: { size_limit: null, validity_period: '1d' }, expect: () => 'ok' },
  { what: 'an unknown field', source: 'hocon_tconf.erl check_unknown_fields/3 and fmt_field_names/1 (sorted, two names, then `,...`)',
    url: ALARM, body: { size_limit: 10, nope: 1 },
    expect: () => ({ kind: 'validation_error', path: 'root', reason: 'unknown_fields', unknown: 'nope', unmatched: 'actions,validity_period' }) },
  { what: 'an unknown field of a zone root', source: 'emqx_dashboard_swagger.erl check_request_body/5: a list schema checks each root under its own name, no `root.`',
    url: ZONE, body: { flapping_detect: { nope: 1 } },
    expect: () => ({ kind: 'validation_error', path: 'flapping_detect', reason: 'unknown_fields', unknown: 'nope', unmatched: 'ban_time,enable,...' }) },
  { what: 'every problem, in schema order', source: 'hocon_tconf.erl map_fields/4 collects each field\'s errors; emqx_hocon.erl format_error/2 lists several',
    url: ALARM, body: { validity_period: 'soon', size_limit: 0 },
    expect: (d) => [problem('root.size_limit', { expected: '1..3000' }, 0), refused(d, 'duration', 'root.validity_period', 'soon')] },
];

for (const { version, edition } of PROFILES) {
  const id = `${version}-${edition}`;
  test(`${id}: the hocon battery`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition });
    const token = await login(app);
    for (const c of CASES) {
      if (c.releases && !c.releases.includes(version)) continue;
      const expected = c.expect(HOCON[version]);
      const res = await api(app, 'PUT', `/api/v5${c.url}`, { token, body: c.body });
      const label = `${id} ${c.what} (${c.source}): ${res.body}`;
      if (expected === 'ok') {
        assert.is(res.statusCode, 200, label);
        continue;
      }
      assert.is(res.statusCode, 400, label);
      const body = res.json() as { code: string; message: string };
      assert.is(body.code, 'BAD_REQUEST', label);
      assert.equal(JSON.parse(body.message), expected, label);
    }
    await app.close();
  });
}

test('what an accepted text turns into is kept as given', async () => {
  // hocon keeps the raw config as sent (emqx_config:update_config/3 stores the raw map); the
  // typed value is what the broker runs with.
  const app = await buildTestApp({ emqxVersion: '6.2.2' });
  const token = await login(app);
  assert.is((await api(app, 'PUT', '/api/v5/configs/alarm', { token, body: { validity_period: '1f' } })).statusCode, 200);
  assert.is((await api(app, 'GET', '/api/v5/configs/alarm', { token })).json().validity_period, '1f');
  await app.close();
});

test.run();
