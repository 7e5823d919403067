import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setLocale } from '../../web/lib/i18n';
import {
  fileExtension,
  isValidPassword,
  json,
  namePattern,
  noWildcard,
  notSameAs,
  numberRange,
  password,
  passwordRequired,
  publishTopic,
  reservedUsername,
  required,
  sameAs,
  strictNamePattern,
  topicFilter,
  topicName,
  topicProblem,
  usernamePattern,
  usernameRequired,
  validate,
} from '../../web/lib/validators';

setLocale('en');

const passwords: [string, boolean, string][] = [
  ['abcdefgh', false, 'letters only'],
  ['12345678', false, 'digits only'],
  ['!@#$%^&*', false, 'symbols only'],
  ['        ', false, 'spaces only'],
  ['abcd1234', true, 'letters and digits'],
  ['12345678!', true, 'digits and a symbol'],
  ['abc defg', true, 'letters and a space'],
  ['abc123!', false, 'seven characters'],
  ['abcdefg', false, 'seven letters'],
  ['a1'.repeat(32), true, '64 characters'],
  ['a1'.repeat(32) + 'x', false, '65 characters'],
  ['pässwörd1', false, 'non-ASCII letters'],
  ['abcd1234\t', false, 'a control character'],
  ['密码密码1234', false, 'Chinese characters'],
];

for (const [value, valid, why] of passwords) {
  test(`password rule ${valid ? 'accepts' : 'rejects'} ${why} (${JSON.stringify(value)})`, () => {
    assert.is(isValidPassword(value), valid);
    assert.is(password(value, {}) === undefined, valid);
  });
}

test('a password failure explains the rule', () => {
  assert.match(password('abcdefgh', {})!, /8 to 64/);
});

test('required rejects empty values with the generic or the given message', () => {
  // One wording (issue #34): '<label> is required', the label given by the form.
  for (const empty of [undefined, null, '', []]) assert.is(required()(empty, {}, 'Topic'), 'Topic is required');
  assert.is(required('validation.nameRequired')('', {}), 'Name is required');
  assert.is(required()('x', {}), undefined);
  assert.is(required()(0, {}), undefined);
  assert.is(required()(false, {}), undefined);
});

test('username and password required use the spec texts', () => {
  assert.is(usernameRequired('', {}), 'Username is required');
  assert.is(passwordRequired(undefined, {}), 'Password is required');
  assert.is(usernameRequired('admin', {}), undefined);
});

test('a new password equal to the old one is rejected', () => {
  const rule = notSameAs('old_pwd');
  assert.is(rule('public123', { old_pwd: 'public123' }), 'The new and old passwords cannot be the same');
  assert.is(rule('public1234', { old_pwd: 'public123' }), undefined);
});

test('a confirmation that differs is rejected', () => {
  const rule = sameAs('new_pwd');
  assert.is(rule('abc', { new_pwd: 'abd' }), "Two inputs don't match!");
  assert.is(rule('abc', { new_pwd: 'abc' }), undefined);
});

const names: [string, boolean, boolean][] = [
  // value, namePattern, strictNamePattern
  ['rule_1', true, true],
  ['1rule', true, false],
  ['my-bridge', true, true],
  ['_rule', false, false],
  ['-rule', false, false],
  ['rule.1', false, false],
  ['rule 1', false, false],
  ['规则', false, false],
  ['rule规则', false, false],
];

for (const [value, loose, strict] of names) {
  test(`name ${JSON.stringify(value)} is ${loose ? 'accepted' : 'rejected'} by the name pattern and ${strict ? 'accepted' : 'rejected'} by the strict one`, () => {
    assert.is(namePattern(value, {}) === undefined, loose);
    assert.is(strictNamePattern(value, {}) === undefined, strict);
  });
}

test('format rules leave empty values to required', () => {
  for (const rule of [namePattern, strictNamePattern, usernamePattern, password, json, numberRange(1, 2), fileExtension(['crt'])]) {
    assert.is(rule('', {}), undefined);
    assert.is(rule(undefined, {}), undefined);
  }
});

test('usernames allow letters, digits and underscores up to 100 characters', () => {
  assert.is(usernamePattern('admin_2', {}), undefined);
  assert.ok(usernamePattern('ad-min', {}));
  assert.ok(usernamePattern('管理员', {}));
  assert.is(usernamePattern('a'.repeat(100), {}), undefined);
  assert.match(usernamePattern('a'.repeat(101), {})!, /100/);
});

test('number range accepts the bounds and rejects values outside or not numeric', () => {
  const rule = numberRange(1, 255);
  assert.is(rule(1, {}), undefined);
  assert.is(rule('255', {}), undefined);
  assert.is(rule(0, {}), 'the number range is 1 - 255');
  assert.is(rule('256', {}), 'the number range is 1 - 255');
  assert.is(rule('abc', {}), 'Please enter a number');
  assert.is(rule('  ', {}), 'Please enter a number');
});

test('JSON text must parse', () => {
  assert.is(json('{"a":1}', {}), undefined);
  assert.is(json('[1, 2]', {}), undefined);
  assert.is(json('{a:1}', {}), 'Please enter the correct JSON');
  assert.is(json({ a: 1 }, {}), undefined);
});

test('uploads must carry one of the given extensions', () => {
  const cert = fileExtension(['crt', 'key', 'pem']);
  assert.is(cert('server.PEM', {}), undefined);
  assert.is(cert({ name: 'ca.crt' }, {}), undefined);
  assert.is(cert('server.txt', {}), 'Please upload a file with extension .crt, .key, .pem');
  const plugin = fileExtension(['.tar.gz']);
  assert.is(plugin([{ name: 'emqx_plugin-1.0.tar.gz' }], {}), undefined);
  assert.is(plugin([{ name: 'emqx_plugin-1.0.tar.gz' }, { name: 'x.gz' }], {}), 'Please upload a file with extension .tar.gz');
});

const topics: [string, 'name' | 'filter', string | undefined][] = [
  ['a/b', 'name', undefined],
  ['a/b', 'filter', undefined],
  ['a/+', 'name', 'topicWildcardInName'],
  ['a/#', 'name', 'topicWildcardInName'],
  ['/', 'name', undefined],
  ['a//b', 'filter', undefined],
  ['#', 'filter', undefined],
  ['+', 'filter', undefined],
  ['a/#', 'filter', undefined],
  ['+/a', 'filter', undefined],
  ['+/+/#', 'filter', undefined],
  ['$SYS/#', 'filter', undefined],
  ['a/#/b', 'filter', 'topicHash'],
  ['a/b#', 'filter', 'topicHash'],
  ['#/', 'filter', 'topicHash'],
  ['a+', 'filter', 'topicPlus'],
  ['a/b+/c', 'filter', 'topicPlus'],
  ['a/++', 'filter', 'topicPlus'],
  ['', 'name', 'topicRequired'],
  ['', 'filter', 'topicRequired'],
  ['a\u0000b', 'name', 'topicNul'],
  ['a/\u0000', 'filter', 'topicNul'],
  ['a/\ud800', 'name', 'topicEncoding'],
  ['a/\ud83d\ude00', 'name', undefined],
  ['x'.repeat(65535), 'name', undefined],
  ['x'.repeat(65536), 'name', 'topicTooLong'],
  ['é'.repeat(32768), 'filter', 'topicTooLong'],
  ['$share/g1/a/#', 'filter', undefined],
  ['$share/g1/+', 'filter', undefined],
  ['$share/g+/a', 'filter', 'topicShare'],
  ['$share//a', 'filter', 'topicShare'],
  ['$share/g1', 'filter', 'topicShare'],
  ['$share/g1/', 'filter', 'topicShare'],
  ['$share/g1/a#', 'filter', 'topicHash'],
];

for (const [topic, kind, problem] of topics) {
  const shown = topic.length > 40 ? `${topic.slice(0, 8)}… (${topic.length} characters)` : JSON.stringify(topic);
  test(`topic ${shown} as a ${kind} is ${problem ? `invalid (${problem})` : 'valid'}`, () => {
    assert.is(topicProblem(topic, kind), problem);
  });
}

test('topic rules translate the problem and reject empty values', () => {
  assert.is(topicName('a/+', {}), "A publish topic cannot contain '#' or '+'");
  assert.is(topicFilter('a/#/b', {}), "Invalid use of '#': it must stand alone in the last level");
  assert.is(topicFilter('a+', {}), "Invalid use of '+': it must fill a whole level");
  assert.is(topicFilter(undefined, {}), 'Topic is required');
  assert.is(topicName('t/1', {}), undefined);
  assert.is(topicFilter('t/#', {}), undefined);
});

test('topic metrics reject wildcards with their own message', () => {
  assert.is(noWildcard('a/#', {}), 'Topic metrics do not support wildcards');
  assert.is(noWildcard('a/+/b', {}), 'Topic metrics do not support wildcards');
  assert.is(noWildcard('a/b', {}), undefined);
  assert.is(noWildcard('a\u0000', {}), 'The topic cannot contain the null character (U+0000)');
});

test('validate returns the first failing message in rule order', () => {
  assert.is(validate([passwordRequired, password], '', {}), 'Password is required');
  assert.match(validate([passwordRequired, password], 'abcdefgh', {})!, /8 to 64/);
  assert.is(validate([passwordRequired, password, notSameAs('old')], 'abcd1234', { old: 'abcd1234' }), 'The new and old passwords cannot be the same');
  assert.is(validate([passwordRequired, password], 'abcd1234'), undefined);
});

test('messages follow the language in Chinese', () => {
  setLocale('zh');
  try {
    assert.is(usernameRequired('', {}), '请输入用户名');
    assert.is(numberRange(1, 255)(300, {}), '数值范围为 1 - 255');
  } finally {
    setLocale('en');
  }
});

test('publishTopic refuses wildcards in the literal text of a template, not inside ${…} placeholders', () => {
  assert.is(publishTopic('alerts/#', {}), "A publish topic cannot contain '#' or '+'");
  assert.is(publishTopic('alerts/+/x', {}), "A publish topic cannot contain '#' or '+'");
  assert.is(publishTopic('alerts/${clientid}/${payload.x}', {}), undefined);
  assert.is(publishTopic('${topic}', {}), undefined);
  assert.is(publishTopic('', {}), 'Topic is required');
});

test('reservedUsername refuses root and administrator in any case and lets others through', () => {
  assert.is(reservedUsername('root', {}), 'root is a reserved username, please choose another');
  assert.is(reservedUsername('ADMINISTRATOR', {}), 'ADMINISTRATOR is a reserved username, please choose another');
  assert.is(reservedUsername('rooter', {}), undefined);
  assert.is(reservedUsername('', {}), undefined);
});

test.run();
