// The SQL editor's pure parts: the highlighter's tokenizer (keywords, strings, numbers, function
// calls, operators, comments; tokens always join back to the input), the word before the caret
// for completion, and the rule editor's FROM-list helpers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lineColumn, tokenize, wordBefore } from '../../web/lib/sqlTokens.ts';
import { addFrom, DEFAULT_SQL, eventOf, eventType, fromList, sampleTopic } from '../../web/features/integration/rules/sql.ts';
import { FUNCTIONS, completions } from '../../web/features/integration/rules/sqlWords.ts';

const kinds = (sql: string) => tokenize(sql).filter((t) => t.type !== 'text').map((t) => `${t.type}:${t.text}`);

test('keywords (any case), identifiers, FROM topics as strings, numbers and operators', () => {
  assert.equal(kinds('select payload.temp as t FROM "t/#" WHERE t >= 30.5'), [
    'keyword:select', 'ident:payload', 'ident:temp', 'keyword:as', 'ident:t', 'keyword:FROM', 'string:"t/#"',
    'keyword:WHERE', 'ident:t', 'operator:>=', 'number:30.5',
  ]);
});

test('a name followed by ( is a function, also with spaces; a column of the same name is not', () => {
  assert.equal(kinds("SELECT upper (s), lower(s) AS lower, nth(1, payload.list) FROM \"$events/client_connected\""), [
    'keyword:SELECT', 'function:upper', 'ident:s', 'function:lower', 'ident:s', 'keyword:AS', 'ident:lower', 'function:nth', 'number:1',
    'ident:payload', 'ident:list', 'keyword:FROM', 'string:"$events/client_connected"',
  ]);
});

test("single-quoted strings with escapes, =~ and <> operators, CASE and FOREACH words", () => {
  assert.equal(kinds("FOREACH payload.a DO item.x INCASE topic =~ 't/#' AND x <> 'it''s' FROM \"t\""), [
    'keyword:FOREACH', 'ident:payload', 'ident:a', 'keyword:DO', 'ident:item', 'ident:x', 'keyword:INCASE', 'ident:topic', 'operator:=~',
    "string:'t/#'", 'keyword:AND', 'ident:x', 'operator:<>', "string:'it''s'", 'keyword:FROM', 'string:"t"',
  ]);
  assert.equal(kinds('CASE WHEN a THEN 0x1F ELSE -2e3 END'), [
    'keyword:CASE', 'keyword:WHEN', 'ident:a', 'keyword:THEN', 'number:0x1F', 'keyword:ELSE', 'operator:-', 'number:2e3', 'keyword:END',
  ]);
});

test('comments, unterminated strings run to the end, and tokens always join back to the input', () => {
  assert.equal(kinds('-- note\nSELECT /* a */ 1'), ['comment:-- note', 'keyword:SELECT', 'comment:/* a */', 'number:1']);
  assert.equal(kinds("SELECT 'open"), ['keyword:SELECT', "string:'open"]);
  for (const sql of [DEFAULT_SQL, "SELECT a[1], b.c FROM \"x/+\", \"$events/x\" WHERE a != 'q' -- end", '', '  \n\t', '€ ä 1a _b $c']) {
    assert.is(tokenize(sql).map((t) => t.text).join(''), sql);
  }
  assert.equal(tokenize('1a'), [{ type: 'text', text: '1' }, { type: 'ident', text: 'a' }]);
});

test('the word before the caret and its line/column, for completion', () => {
  assert.equal(wordBefore('SELECT payload.te', 17), { start: 7, word: 'payload.te' });
  assert.equal(wordBefore('SELECT up', 9), { start: 7, word: 'up' });
  assert.equal(wordBefore('SELECT ', 7), { start: 7, word: '' });
  assert.equal(lineColumn('SELECT\n  cli', 12), { line: 1, column: 5 });
});

test('FROM list: read, add (replacing the untouched default), no duplicates, added when missing', () => {
  assert.equal(fromList('SELECT * FROM "t/#", "$events/client_connected" WHERE a = 1'), ['t/#', '$events/client_connected']);
  assert.equal(fromList('SELECT 1'), []);
  assert.is(addFrom(DEFAULT_SQL, '$events/client_connected'), 'SELECT\n  *\nFROM\n  "$events/client_connected"');
  assert.is(addFrom('SELECT * FROM "a/#" WHERE x > 1', 'b/+'), 'SELECT * FROM "a/#",\n  "b/+" WHERE x > 1');
  assert.is(addFrom('SELECT * FROM "a/#"', 'a/#'), 'SELECT * FROM "a/#"');
  assert.is(addFrom('SELECT *', 'a'), 'SELECT *\nFROM\n  "a"');
});

test('the test event of a FROM entry, its event_type, and a sample topic for a filter', () => {
  assert.is(eventOf('$events/client_connected'), '$events/client_connected');
  assert.is(eventOf('$bridges/mqtt:in'), '$bridges/mqtt:*');
  assert.is(eventOf('sensors/+'), '$events/message_publish');
  assert.is(eventOf(undefined), '$events/message_publish');
  assert.is(eventType('$events/message_publish'), 'message_publish');
  assert.is(eventType('$events/sys/alarm_activated'), 'alarm_activated');
  assert.is(eventType('$bridges/mqtt:*'), '$bridges/mqtt:*');
  assert.is(sampleTopic('sensors/+/x/#'), 'sensors/a/x/a');
  assert.is(sampleTopic('$share/g/t/+'), 't/a');
});

test('completions: columns first, each function once with its arguments, keywords last', () => {
  const list = completions(['clientid', 'topic', 'clientid']);
  assert.equal(list.slice(0, 2).map((c) => c.label), ['clientid', 'topic']);
  const names = FUNCTIONS.map((f) => f.label);
  assert.is(new Set(names).size, names.length);
  for (const name of ['abs', 'is_null', 'int', 'upper', 'map_get', 'nth', 'md5', 'gzip', 'bitand', 'base64_encode', 'now_timestamp', 'coalesce']) assert.ok(names.includes(name), name);
  assert.is(FUNCTIONS.find((f) => f.label === 'substr')!.detail, '(s,start) · string');
  assert.is(list[list.length - 1].kind, 'keyword');
});

test.run();
