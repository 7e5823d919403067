// The rule SQL engine against a table of statements + input → expected output, the expected
// values taken from the broker's rule SQL reference and its function reference (the examples
// given there, e.g. `regex_replace('ab1cd3ef', '[1-9]', '[&]') = 'ab[1]cd[3]ef'`) and from the
// runtime's documented behaviour: aliases visible to WHERE, nested output keys for paths, 1-based
// indexes, FOREACH without DO yielding the columns plus `item`, CASE without ELSE leaving the
// field out, comparisons with undefined being false, failing conversions failing the rule.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSql, evaluate, EvalError, fromMatches } from '../../simulator/rules/evaluator.ts';

const NOW = Date.UTC(2024, 1, 26, 7, 42, 33, 472);

const PAYLOAD = {
  x: 8,
  temp: 27.5,
  name: 'Sensor-01',
  tags: ['a', 'b', 'c'],
  dev: { id: 'd1', loc: { lat: 1.5, lng: 2.5 } },
  date: '2020-04-24',
  sensors: [{ name: 'a', idx: 0 }, { name: 'b', idx: 1 }, { name: 'c', idx: 2 }],
  text: ' a/b/ c\n',
  n: '1234',
};

const MESSAGE = {
  event: 'message.publish',
  id: '0005F8A4A5B1C0C1F4420000A0F30001',
  clientid: 'c_steve',
  username: 'steve',
  topic: 't/1',
  qos: 1,
  payload: JSON.stringify(PAYLOAD),
  timestamp: NOW,
  publish_received_at: NOW,
  node: 'emqx@127.0.0.1',
};

type Outcome = Record<string, unknown>[] | 'no match' | 'exception';

interface Case {
  sql: string;
  /** The columns given to the statement (default: MESSAGE). */
  input?: Record<string, unknown>;
  expected: Outcome;
}

function run(sql: string, columns: Record<string, unknown>): Outcome {
  const stmt = compileSql(sql);
  const topic = String(columns.topic ?? '');
  const source = String(columns.event ?? '').startsWith('client.') ? `$events/${String(columns.event).replace('.', '_')}` : topic;
  if (!fromMatches(stmt.from, source)) return 'no match';
  try {
    return evaluate(stmt, structuredClone(columns), { now: () => NOW }) ?? 'no match';
  } catch (err) {
    if (err instanceof EvalError) return 'exception';
    throw err;
  }
}

/** One output field `v` of one expression, as a table row. */
const fn = (expr: string, value: unknown): Case => ({ sql: `SELECT ${expr} AS v FROM "t/#"`, expected: [{ v: value }] });

const CONNECTED = { event: 'client.connected', clientid: 'c1', username: 'u1', peername: '10.0.0.7:52310', proto_ver: 5, keepalive: 60 };

const CASES: Case[] = [
  // ---- SELECT, FROM, aliases, nested paths, array indexing ----
  { sql: 'SELECT clientid, payload.dev.id AS id FROM "t/#", "my/other/topic"', expected: [{ clientid: 'c_steve', id: 'd1' }] },
  { sql: 'SELECT clientid FROM "other/#"', expected: 'no match' },
  { sql: 'SELECT payload.dev.loc.lat FROM "t/+"', expected: [{ payload: { dev: { loc: { lat: 1.5 } } } }] },
  { sql: 'SELECT payload.dev.loc AS loc.at FROM "t/1"', expected: [{ loc: { at: { lat: 1.5, lng: 2.5 } } }] },
  { sql: 'SELECT payload.tags[1] AS first, payload.tags[3] AS third FROM "t/#"', expected: [{ first: 'a', third: 'c' }] },
  { sql: 'SELECT payload.sensors[2].name AS s FROM "t/#"', expected: [{ s: 'b' }] },
  { sql: 'SELECT payload.x AS x FROM "t/#" WHERE x = 8', expected: [{ x: 8 }] },
  { sql: 'SELECT payload.x AS y FROM "t/#" WHERE y = 1', expected: 'no match' },
  { sql: 'SELECT peername AS ip_port FROM "$events/client_connected" WHERE clientid = \'c1\'', input: CONNECTED, expected: [{ ip_port: '10.0.0.7:52310' }] },
  { sql: 'SELECT * FROM "$events/client_connected"', input: CONNECTED, expected: [CONNECTED] },
  // ---- WHERE operators ----
  { sql: 'SELECT qos FROM "t/#" WHERE payload.dev.loc.lat > 1 AND payload.dev.loc.lng < 3', expected: [{ qos: 1 }] },
  { sql: 'SELECT qos FROM "t/#" WHERE qos >= 2 OR username <> \'steve\'', expected: 'no match' },
  { sql: 'SELECT qos FROM "t/#" WHERE topic =~ \'t/+\' AND clientid != \'x\'', expected: [{ qos: 1 }] },
  { sql: 'SELECT qos FROM "t/#" WHERE payload.n = 1234', expected: [{ qos: 1 }] },
  { sql: 'SELECT qos FROM "t/#" WHERE payload.missing = 0', expected: 'no match' },
  { sql: 'SELECT qos FROM "t/#" WHERE payload.temp <= 27.5 AND NOT (qos = 0)', expected: [{ qos: 1 }] },
  // ---- arithmetic ----
  { sql: 'SELECT payload.x * 2 - 1 AS a, payload.x / 2 AS b, \'a\' + \'/bc\' AS c FROM "t/#"', expected: [{ a: 15, b: 4, c: 'a/bc' }] },
  { sql: 'SELECT payload.x + clientid AS bad FROM "t/#"', expected: 'exception' },
  // ---- CASE ----
  { sql: 'SELECT CASE WHEN payload.x < 0 THEN 0 WHEN payload.x > 7 THEN 7 ELSE payload.x END AS x FROM "t/#"', expected: [{ x: 7 }] },
  { sql: 'SELECT CASE qos WHEN 0 THEN \'at most once\' WHEN 1 THEN \'at least once\' ELSE \'exactly once\' END AS q FROM "t/#"', expected: [{ q: 'at least once' }] },
  { sql: 'SELECT CASE WHEN payload.x > 100 THEN \'big\' END AS size, qos FROM "t/#"', expected: [{ qos: 1 }] },
  // ---- FOREACH / DO / INCASE ----
  {
    sql: 'FOREACH payload.sensors AS s DO clientid, upper(s.name) AS name, s.idx AS idx INCASE s.idx >= 1 FROM "t/#"',
    expected: [{ clientid: 'c_steve', name: 'B', idx: 1 }, { clientid: 'c_steve', name: 'C', idx: 2 }],
  },
  {
    sql: 'FOREACH payload.sensors DO nth(2, tokens(clientid, \'_\')) AS clientid, item.name AS name INCASE item.idx >= 1 FROM "t/#"',
    expected: [{ clientid: 'steve', name: 'b' }, { clientid: 'steve', name: 'c' }],
  },
  { sql: 'FOREACH payload.tags DO item AS value FROM "t/#" WHERE qos = 1', expected: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] },
  { sql: 'FOREACH payload.tags DO item AS value FROM "t/#" WHERE qos = 2', expected: 'no match' },
  // INCASE dropping every element still matches, with no outputs (`POST /rule_test` answers 200 `[]`).
  { sql: 'FOREACH payload.tags INCASE item = \'z\' FROM "t/#"', expected: [] },
  // Without DO each output is the columns with the selected array and the element as `item`.
  {
    sql: 'FOREACH payload.tags AS tag FROM "t/#"',
    expected: ['a', 'b', 'c'].map((tag) => ({ ...MESSAGE, tag })),
  },
  // ---- mathematical ----
  fn('abs(-12)', 12),
  fn('power(2, 10) + fmod(-32, 5) + log2(1024) + log10(1000)', 1024 - 2 + 10 + 3),
  fn('[ceil(1.34), floor(1.34), round(1.54), sqrt(16), div(7, 2), mod(7, 2)]', [2, 1, 2, 4, 3, 1]),
  // ---- bit ----
  fn('[bitand(12, 10), bitor(12, 10), bitxor(12, 10), bitnot(0), bitsl(1, 4), bitsr(16, 2)]', [8, 14, 6, -1, 16, 4]),
  // ---- type checks and conversions ----
  fn('[is_null(payload.none), is_not_null(1), is_str(1), is_str(\'val\'), is_int(1), is_float(1.234), is_num(2.3), is_map(payload.dev), is_array(payload.tags)]',
    [true, true, false, true, true, true, true, true, true]),
  fn('[str(1234), str_utf8(1234), bool(\'true\'), int(\'1234\'), float(\'3.14\')]', ['1234', '1234', true, 1234, 3.14]),
  { sql: 'SELECT int(payload.name) AS v FROM "t/#"', expected: 'exception' },
  // ---- string ----
  fn('[lower(\'AbC\'), upper(\'AbC\'), trim(\' hello  \'), ltrim(\' hello  \'), rtrim(\' hello  \'), reverse(\'hello\'), strlen(\'hello\')]',
    ['abc', 'ABC', 'hello', 'hello  ', ' hello', 'olleh', 5]),
  fn('[substr(\'abcdef\', 2), substr(\'abcdef\', 2, 3), split(\'a/b/ c\', \'/\'), split(\'a/b/ c\', \'/\', \'leading\'), split(\'a/b/ c\', \'/\', \'trailing\')]',
    ['cdef', 'cde', ['a', 'b', ' c'], ['a', 'b/ c'], ['a/b', ' c']]),
  fn('[tokens(\' a/b/ c\', \'/\'), tokens(\' a/b/ c\', \'/ \'), tokens(payload.text, \'/ \'), tokens(payload.text, \'/ \', \'nocrlf\')]',
    [[' a', 'b', ' c'], ['a', 'b', 'c'], ['a', 'b', 'c\n'], ['a', 'b', 'c']]),
  fn('[sprintf(\'hello, ~s!\', \'steve\'), pad(\'abc\', 5, \'both\', \'*\'), pad(\'abc\', 5, \'leading\', \'*#\'), concat(\'a\', \'/bc\')]',
    ['hello, steve!', '*abc*', '*#*#abc', 'a/bc']),
  fn('[replace(\'ababef\', \'ab\', \'cd\'), replace(\'ababef\', \'ab\', \'cd\', \'trailing\'), replace(\'ababef\', \'ab\', \'cd\', \'leading\')]',
    ['cdcdef', 'abcdef', 'cdabef']),
  fn('[regex_match(\'abc123\', \'[a-zA-Z1-9]*\'), regex_replace(\'ab1cd3ef\', \'[1-9]\', \'[&]\'), regex_replace(\'ccefacef\', \'c+\', \':\')]',
    [true, 'ab[1]cd[3]ef', ':efa:ef']),
  // RE2 (the linear-time engine): groups, `(?P<name>…)`, `&` per match, unanchored search.
  fn('[regex_extract(\'t/42/x\', \'t/([0-9]+)/(.)\'), regex_extract(\'k=v\', \'(?P<k>[a-z]+)=([a-z]+)\'), regex_replace(\'a1b22\', \'[0-9]\', \'<&>\'), regex_match(\'xaay\', \'a+\')]',
    [['42', 'x'], ['k', 'v'], 'a<1>b<2><2>', true]),
  // A pattern from the message that RE2 cannot compile (a backreference) fails the run.
  { sql: 'SELECT regex_match(clientid, payload.re) AS v FROM "t/#"', input: { ...MESSAGE, payload: JSON.stringify({ re: '(a)\\1' }) }, expected: 'exception' },
  fn('[ascii(\'a\'), find(\'eeabcabcee\', \'abc\'), find(\'eeabcabcee\', \'abc\', \'trailing\'), find(\'eeabcabcee\', \'xyz\')]',
    [97, 'abcabcee', 'abcee', '']),
  // ---- map ----
  fn('[map_get(\'a\', json_decode(\'{ "a" : 1 }\')), map_get(\'b\', json_decode(\'{ "a" : 1 }\'), 2), map_get(\'a\', map_put(\'a\', 2, json_decode(\'{ "a" : 1 }\')))]',
    [1, 2, 2]),
  fn('map_put(\'loc.alt\', 3, payload.dev)', { id: 'd1', loc: { lat: 1.5, lng: 2.5, alt: 3 } }),
  fn('[map_get(\'dev.loc.lng\', payload), mget(\'id\', payload.dev), map_keys(payload.dev.loc), map_values(payload.dev.loc)]', [2.5, 'd1', ['lat', 'lng'], [1.5, 2.5]]),
  // ---- array ----
  fn('[nth(2, payload.tags), length(payload.tags), sublist(2, payload.tags), sublist(2, 2, payload.tags), first(payload.tags), last(payload.tags), contains(\'b\', payload.tags)]',
    ['b', 3, ['a', 'b'], ['b', 'c'], 'a', 'c', true]),
  { sql: 'SELECT nth(4, payload.tags) AS v FROM "t/#"', expected: 'exception' },
  // ---- hash ----
  fn('[md5(\'some val\'), sha(\'some val\'), sha256(\'some val\')]', [
    '1b68352b3e9c2de52ffd322e30bffcc4', 'f85ba28ff5ea84a0cbfa118319acb0c5e58ee2b9',
    '67f97635d8a0e064f60ba6e8846a0ac0be664f18f0c1dc6445cd3542d2b71993',
  ]),
  // ---- compression ----
  fn('[bin2hexstr(gzip(\'hello world\')), bin2hexstr(zip(\'hello world\')), bin2hexstr(zip_compress(\'hello world\'))]', [
    '1F8B0800000000000003CB48CDC9C95728CF2FCA49010085114A0D0B000000', 'CB48CDC9C95728CF2FCA490100', '789CCB48CDC9C95728CF2FCA4901001A0B045D',
  ]),
  fn('[gunzip(hexstr2bin(\'1F8B0800000000000003CB48CDC9C95728CF2FCA49010085114A0D0B000000\')), unzip(hexstr2bin(\'CB48CDC9C95728CF2FCA490100\')), zip_uncompress(hexstr2bin(\'789CCB48CDC9C95728CF2FCA4901001A0B045D\'))]',
    ['hello world', 'hello world', 'hello world']),
  // ---- encoding and decoding ----
  fn('[base64_encode(\'some val\'), base64_decode(\'c29tZSB2YWw=\'), json_encode(json_decode(\'{ "a" : 1 }\')), bin2hexstr(\'abc\'), hexstr2bin(\'616263\')]',
    ['c29tZSB2YWw=', 'some val', '{"a":1}', '616263', 'abc']),
  // ---- time and date ----
  fn('format_date(\'millisecond\', \'+08:20:30\', \'%Y-%m-%d %H:%M:%S.%3N%::z\', 1708933353472)', '2024-02-26 16:03:03.472+08:20:30'),
  fn('[format_date(\'second\', \'+0800\', \'%Y-%m-%d %H:%M:%S%:z\', 1653561612), date_to_unix_ts(\'second\', \'%Y-%m-%d %H:%M:%S%:z\', \'2024-02-23 15:00:00+08:00\'), date_to_unix_ts(\'second\', \'+08:00\', \'%Y-%m-%d %H:%M:%S\', \'2024-02-23 15:00:00\')]',
    ['2022-05-26 18:40:12+08:00', 1708671600, 1708671600]),
  fn('[now_timestamp(\'millisecond\'), rfc3339_to_unix_ts(\'2024-02-26T07:42:33Z\'), timezone_to_offset_seconds(\'+08:00\')]', [NOW, 1708933353, 28800]),
  // ---- uuid and other ----
  fn('[strlen(uuid_v4()), strlen(uuid_v4_no_hyphen()), regex_match(uuid_v4(), \'^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$\'), coalesce(payload.none, \'dflt\')]',
    [36, 32, true, 'dflt']),
];

test('the table has at least 40 cases', () => {
  assert.ok(CASES.length >= 40, `${CASES.length} cases`);
});

test('statement table: every case gives the documented output', () => {
  const failures: string[] = [];
  for (const c of CASES) {
    const got = run(c.sql, c.input ?? MESSAGE);
    try {
      assert.equal(got, c.expected);
    } catch {
      failures.push(`${c.sql}\n  expected ${JSON.stringify(c.expected)}\n  got      ${JSON.stringify(got)}`);
    }
  }
  assert.is(failures.length, 0, `\n${failures.join('\n')}`);
});

test.run();
