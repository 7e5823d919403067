// The rule SQL engine against a table of statements and the outputs the broker's documented
// semantics give (emqx-api-part2 §5.5): SELECT with aliases and nested paths, FROM topic filters
// and `$events/...`, WHERE operators and arithmetic, FOREACH … DO … INCASE, CASE, 1-based array
// indexing, each function group, failing conversions, and parse errors with their position.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSql, evaluate, EvalError, fromMatches } from '../../simulator/rules/evaluator.ts';
import { SqlSyntaxError } from '../../simulator/rules/lexer.ts';

const NOW = Date.UTC(2024, 0, 1, 0, 0, 0, 123);
const PAYLOAD = {
  temp: 31,
  a: { b: 'x' },
  arr: [10, 20, 30],
  sensors: [{ name: 'a', idx: 0 }, { name: 'b', idx: 1 }, { name: 'c', idx: 2 }],
  s: 'Hello World',
  n: '12',
  flag: true,
};
const COLUMNS = {
  event: 'message.publish',
  clientid: 'c1',
  username: 'u1',
  topic: 't/a',
  qos: 1,
  payload: JSON.stringify(PAYLOAD),
  timestamp: NOW,
};

type Expected = Record<string, unknown>[] | 'no match' | 'exception';

/** Runs a statement as a rule does: FROM against the topic, then evaluation. */
function run(sql: string, columns: Record<string, unknown> = COLUMNS, topic = String(columns.topic)): Expected {
  const stmt = compileSql(sql);
  if (!fromMatches(stmt.from, topic)) return 'no match';
  try {
    return evaluate(stmt, structuredClone(columns), { now: () => NOW }) ?? 'no match';
  } catch (err) {
    if (err instanceof EvalError) return 'exception';
    throw err;
  }
}

/** The value of the single output field `v`. */
const v = (expr: string) => {
  const out = run(`SELECT ${expr} AS v FROM "t/#"`);
  return Array.isArray(out) ? out[0].v : out;
};

const CASES: [string, Expected][] = [
  // SELECT, aliases, nested paths
  ['SELECT payload.temp AS t, clientid FROM "sensors/+" WHERE payload.temp > 30', 'no match'],
  ['SELECT payload.temp AS t, clientid FROM "t/+" WHERE payload.temp > 30', [{ t: 31, clientid: 'c1' }]],
  ['SELECT payload.temp AS t FROM "t/#" WHERE payload.temp > 40', 'no match'],
  ['SELECT payload.a.b FROM "t/#"', [{ payload: { a: { b: 'x' } } }]],
  ['SELECT payload.a.b AS x.y FROM "t/#"', [{ x: { y: 'x' } }]],
  ['SELECT payload.arr[1] AS first, payload.arr[-1] AS last FROM "t/#"', [{ first: 10, last: 30 }]],
  ['SELECT payload.arr[9] AS none, clientid FROM "t/#"', [{ clientid: 'c1' }]],
  ['SELECT * FROM "t/#"', [COLUMNS]],
  ['SELECT payload.s AS s FROM "t/#" WHERE s = \'Hello World\'', [{ s: 'Hello World' }]],
  ['SELECT clientid AS c, c AS d FROM "t/#"', [{ c: 'c1', d: 'c1' }]],
  // FROM: several entries, events
  ['SELECT qos FROM "a/#", "t/+"', [{ qos: 1 }]],
  ['SELECT qos FROM "$events/client_connected"', 'no match'],
  // WHERE operators
  ['SELECT qos FROM "t/#" WHERE topic =~ \'t/+\'', [{ qos: 1 }]],
  ['SELECT qos FROM "t/#" WHERE topic =~ \'x/#\'', 'no match'],
  ['SELECT qos FROM "t/#" WHERE clientid = \'c1\' AND qos = 1', [{ qos: 1 }]],
  ['SELECT qos FROM "t/#" WHERE clientid != \'c1\' OR qos <> 1', 'no match'],
  ['SELECT qos FROM "t/#" WHERE NOT (qos >= 2)', [{ qos: 1 }]],
  ['SELECT qos FROM "t/#" WHERE qos <= 0', 'no match'],
  ['SELECT qos FROM "t/#" WHERE qos < 2 AND payload.temp >= 31', [{ qos: 1 }]],
  ['SELECT qos FROM "t/#" WHERE payload.flag = true', [{ qos: 1 }]],
  ['SELECT qos FROM "t/#" WHERE payload.none = 1', 'no match'],
  ['SELECT qos FROM "t/#" WHERE payload.temp > \'abc\'', 'exception'],
  // arithmetic
  ['SELECT payload.temp * 2 + 1 AS v FROM "t/#"', [{ v: 63 }]],
  ['SELECT (payload.temp - 1) / 2 AS v FROM "t/#"', [{ v: 15 }]],
  ['SELECT qos / 0 AS v FROM "t/#"', 'exception'],
  ['SELECT \'a\' + \'b\' AS v FROM "t/#"', [{ v: 'ab' }]],
  ['SELECT qos + \'b\' AS v FROM "t/#"', 'exception'],
  // CASE
  ['SELECT CASE WHEN payload.temp > 30 THEN \'hot\' ELSE \'cold\' END AS level FROM "t/#"', [{ level: 'hot' }]],
  ['SELECT CASE WHEN payload.temp > 50 THEN \'x\' END AS level, clientid FROM "t/#"', [{ clientid: 'c1' }]],
  ['SELECT CASE qos WHEN 0 THEN \'zero\' WHEN 1 THEN \'one\' END AS q FROM "t/#"', [{ q: 'one' }]],
  // FOREACH
  // Without DO: the columns, the FOREACH field put at its path over them, and the element as `item`.
  ['FOREACH payload.sensors FROM "t/#"', PAYLOAD.sensors.map((item) => ({ ...COLUMNS, payload: { sensors: PAYLOAD.sensors }, item }))],
  ['FOREACH payload.sensors AS s DO s.name AS name, clientid INCASE s.idx >= 1 FROM "t/#"', [{ name: 'b', clientid: 'c1' }, { name: 'c', clientid: 'c1' }]],
  ['FOREACH payload.arr DO item * 10 AS v FROM "t/#"', [{ v: 100 }, { v: 200 }, { v: 300 }]],
  // INCASE keeping nothing: a match without outputs (rule_test answers `[]`).
  ['FOREACH payload.arr INCASE item > 100 FROM "t/#"', []],
  ['FOREACH payload.arr FROM "t/#" WHERE qos = 2', 'no match'],
  ['FOREACH payload.s FROM "t/#"', 'exception'],
  // a failing conversion makes matching fail
  ['SELECT int(payload.s) AS x FROM "t/#"', 'exception'],
  ['SELECT qos FROM "t/#" WHERE int(payload.n) = 12', [{ qos: 1 }]],
];

test('statement table', () => {
  for (const [sql, expected] of CASES) assert.equal(run(sql), expected, sql);
});

test('event topics and topic filters in FROM', () => {
  assert.ok(fromMatches(['$events/client_connected'], '$events/client_connected'));
  assert.not.ok(fromMatches(['#'], '$events/client_connected'), '# does not cover events');
  assert.not.ok(fromMatches(['$events/client_connected'], 't/a'));
  const connected = { event: 'client.connected', clientid: 'c9', peername: '10.0.0.1:5000' };
  assert.equal(run('SELECT clientid, event FROM "$events/client_connected"', connected, '$events/client_connected'), [{ clientid: 'c9', event: 'client.connected' }]);
});

test('math functions', () => {
  assert.is(v('abs(-5)'), 5);
  assert.is(v('sqrt(16)'), 4);
  assert.is(v('power(2, 10)'), 1024);
  assert.is(v('round(2.5)'), 3);
  assert.is(v('floor(2.7)'), 2);
  assert.is(v('ceil(2.1)'), 3);
  assert.is(v('div(7, 2)'), 3);
  assert.is(v('mod(7, 2)'), 1);
  assert.is(v('bitand(12, 10)'), 8);
  assert.is(v('bitor(12, 10)'), 14);
  assert.is(v('abs(clientid)'), 'exception');
});

test('type checks and conversions', () => {
  assert.is(v('is_num(payload.temp)'), true);
  assert.is(v('is_str(clientid)'), true);
  assert.is(v('is_null(payload.none)'), true);
  assert.is(v('is_not_null(clientid)'), true);
  assert.is(v('is_map(payload.a)'), true);
  assert.is(v('is_array(payload.arr)'), true);
  assert.is(v('is_int(qos)'), true);
  assert.is(v('str(31)'), '31');
  assert.is(v('str(1.5)'), '1.5');
  assert.is(v('float(\'1.5\')'), 1.5);
  assert.is(v('int(\'42\')'), 42);
  assert.is(v('bool(\'true\')'), true);
  assert.is(v('bool(\'maybe\')'), 'exception');
  assert.equal(v('map(\'{"k":1}\')'), { k: 1 });
  assert.is(v('coalesce(payload.none, \'d\')'), 'd');
});

test('string functions', () => {
  assert.is(v('lower(\'ABC\')'), 'abc');
  assert.is(v('upper(clientid)'), 'C1');
  assert.is(v('trim(\'  x \')'), 'x');
  assert.is(v('concat(clientid, \'-\', qos)'), 'c1-1');
  assert.is(v('substr(\'hello\', 1, 3)'), 'ell');
  assert.equal(v('split(topic, \'/\')'), ['t', 'a']);
  assert.equal(v('split(\'/a//b/\', \'/\')'), ['a', 'b']);
  assert.is(v('strlen(\'héllo\')'), 5);
  assert.is(v('replace(\'a-b-c\', \'-\', \'+\')'), 'a+b+c');
  assert.is(v('regex_match(\'abc123\', \'[0-9]+\')'), true);
  assert.is(v('regex_replace(\'a1b2\', \'[0-9]\', \'#\')'), 'a#b#');
  assert.is(v('pad(\'x\', 3, \'leading\', \'0\')'), '00x');
  assert.is(v('sprintf(\'~s-~s\', \'a\', \'b\')'), 'a-b');
  assert.is(v('reverse(\'abc\')'), 'cba');
  assert.is(v('find(\'hello world\', \'o\')'), 'o world');
  assert.equal(v('tokens(\'a,b;c\', \',;\')'), ['a', 'b', 'c']);
  assert.is(v('lower(qos)'), 'exception');
});

test('map and array functions', () => {
  assert.is(v('map_get(\'a.b\', payload)'), 'x');
  assert.is(v('map_get(\'zz\', payload, \'dflt\')'), 'dflt');
  assert.equal(v('map_put(\'k.j\', 1, payload.a)'), { b: 'x', k: { j: 1 } });
  assert.equal(v('map_keys(payload.a)'), ['b']);
  assert.equal(v('map_values(payload.a)'), ['x']);
  assert.equal(v('map_to_entries(payload.a)'), [{ key: 'b', value: 'x' }]);
  assert.is(v('nth(2, payload.arr)'), 20);
  assert.is(v('nth(5, payload.arr)'), 'exception');
  assert.is(v('length(payload.arr)'), 3);
  assert.equal(v('sublist(2, payload.arr)'), [10, 20]);
  assert.equal(v('sublist(2, 2, payload.arr)'), [20, 30]);
  assert.is(v('first(payload.arr)'), 10);
  assert.is(v('last(payload.arr)'), 30);
  assert.is(v('contains(20, payload.arr)'), true);
});

test('hash and encoding functions', () => {
  assert.is(v('md5(\'hello\')'), '5d41402abc4b2a76b9719d911017c592');
  assert.is(v('sha(\'hello\')'), 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d');
  assert.is(v('sha256(\'hello\')'), '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
  assert.is(v('base64_encode(\'hello\')'), 'aGVsbG8=');
  assert.is(v('base64_decode(\'aGVsbG8=\')'), 'hello');
  assert.is(v('base64_decode(\'***\')'), 'exception');
  assert.is(v('bin2hexstr(\'AB\')'), '4142');
  assert.is(v('hexstr2bin(\'4142\')'), 'AB');
  assert.is(v('json_encode(payload.a)'), '{"b":"x"}');
  assert.is(v('json_decode(\'{"x":1}\').x'), 1);
  assert.is(v('json_decode(\'{bad\')'), 'exception');
});

test('time and date functions', () => {
  assert.is(v('now_timestamp()'), Math.floor(NOW / 1000));
  assert.is(v('now_timestamp(\'millisecond\')'), NOW);
  assert.is(v('format_date(\'second\', \'+08:00\', \'%Y-%m-%d %H:%M:%S\', 0)'), '1970-01-01 08:00:00');
  assert.is(v('format_date(\'millisecond\', \'Z\', \'%Y-%m-%dT%H:%M:%S.%3N%:z\', 1704067200123)'), '2024-01-01T00:00:00.123+00:00');
  assert.is(v('date_to_unix_ts(\'second\', \'%Y-%m-%d %H:%M:%S\', \'1970-01-01 00:01:40\')'), 100);
  assert.is(v('date_to_unix_ts(\'second\', \'+01:00\', \'%Y-%m-%d %H:%M:%S\', \'1970-01-01 01:01:40\')'), 100);
  assert.is(v('rfc3339_to_unix_ts(\'2024-01-01T00:00:00Z\')'), 1704067200);
  assert.is(v('rfc3339_to_unix_ts(\'2024-01-01T00:00:00.5+00:00\', \'millisecond\')'), 1704067200500);
  assert.is(v('rfc3339_to_unix_ts(\'yesterday\')'), 'exception');
  assert.is(v('timezone_to_offset_seconds(\'-01:30\')'), -5400);
});

/** The position a statement's syntax error reports. */
function errorAt(sql: string): { line: number; column: number; reason: string } {
  try {
    compileSql(sql);
  } catch (err) {
    if (err instanceof SqlSyntaxError) return { line: err.line, column: err.column, reason: err.reason };
    throw err;
  }
  throw new Error(`no error for ${sql}`);
}

test('parse errors carry the position of the offending token', () => {
  assert.equal(errorAt('SELECT FROM "t/#"'), { line: 1, column: 8, reason: 'syntax error before: \'FROM\'' });
  assert.equal(errorAt('SELECT a\nFROM t'), { line: 2, column: 6, reason: 'syntax error before: \'t\' (expected a double-quoted topic)' });
  assert.equal(errorAt('SELECT a FROM "t" WHERE').column, 24);
  assert.match(errorAt('SELECT a FROM "t" WHERE').reason, 'end of input');
  assert.equal(errorAt('SELECT nope(1) FROM "t"'), { line: 1, column: 8, reason: 'undefined function nope/1' });
  assert.equal(errorAt('SELECT abs(1, 2) FROM "t"'), { line: 1, column: 8, reason: 'bad number of arguments for abs/2' });
  assert.equal(errorAt('SELECT \'open FROM "t"'), { line: 1, column: 8, reason: 'unterminated string' });
  assert.equal(errorAt('SELECT a # b FROM "t"'), { line: 1, column: 10, reason: 'illegal character \'#\'' });
  assert.equal(errorAt('UPDATE t'), { line: 1, column: 1, reason: 'syntax error before: \'UPDATE\' (expected SELECT or FOREACH)' });
});

test.run();
