// The console's error language (web/lib/errors.ts with web/lib/errorCatalog.ts): every code of
// the broker's /error_codes catalog, and every code the simulator answers with, has a sentence in
// both languages; known raw reasons read as sentences; no Erlang term or upper-case code is shown.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../web/lib/api.ts';
import '../../web/lib/errorCatalog.ts';
import { errorDetail, errorText } from '../../web/lib/errors.ts';
import { hasMessage, missingLocales, setLocale } from '../../web/lib/i18n.ts';
import '../../web/lib/messages.ts';
import { ERROR_CODES } from '../../simulator/routes/error-codes.ts';
import { REPO_ROOT } from '../helpers/simulator.ts';

test('every code of GET /error_codes has a message in zh and en', () => {
  assert.ok(ERROR_CODES.length >= 30);
  for (const [code] of ERROR_CODES) {
    assert.ok(hasMessage(`errors.${code}`), code);
    assert.equal(missingLocales(`errors.${code}`), [], code);
  }
});

test('every error code the simulator answers with has a message in zh and en', () => {
  const codes = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/apiError\(\d{3},\s*'([A-Z_]+)'|code:\s*'([A-Z][A-Z_]+)'/g)) codes.add(m[1] ?? m[2]);
      }
    }
  };
  walk(path.join(REPO_ROOT, 'simulator'));
  assert.ok(codes.size > 20, `${codes.size} codes found`);
  const missing = [...codes].filter((code) => !hasMessage(`errors.${code}`) || missingLocales(`errors.${code}`).length > 0);
  assert.equal(missing, []);
});

const sample = (code: string, message: string, status = 400, body?: unknown) => new ApiError(status, code, message, body);

test('known reasons read as sentences in both languages; the raw text stays in the details', () => {
  const cases: [ApiError, RegExp, RegExp][] = [
    [sample('BAD_REQUEST', '{badrpc,nodedown}'), /cannot be reached/, /无法访问/],
    [sample('NODE_DOWN', 'bad rpc call emqx@10.0.0.9, Reason nodedown', 500), /emqx@10\.0\.0\.9 is down/, /emqx@10\.0\.0\.9 已停止/],
    [sample('BAD_REQUEST', 'Cannot delete connector while there are active channels defined for this connector: action:http:to_http'), /Actions still use this connector.*action:http:to_http/, /仍被以下动作使用.*action:http:to_http/],
    [sample('BAD_REQUEST', JSON.stringify({ kind: 'validation_error', reason: 'bad_url', path: 'connectors.http.url', value: 'not a url' })), /not a valid URL/, /URL 格式不正确/],
    [sample('UPDATE_FAILED', JSON.stringify({ kind: 'validation_error', path: 'mqtt.max_inflight', reason: 'out of range 1..65535', value: 0 })), /range 1\.\.65535/, /1\.\.65535/],
    // As hocon words them (hocon_tconf.erl `#{expected => readable_type(Type)}`): a typerefl range
    // and the integer aliases.
    [sample('BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: 'root.size_limit', reason: { expected: '1..3000' }, value: 5000 })), /range 1\.\.3000/, /1\.\.3000/],
    [sample('BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: 'root.acceptors', reason: { expected: 'pos_integer()' }, value: 0 })), /range 1\.\.\+inf/, /1\.\.\+inf/],
    [sample('BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: 'bind', reason: 'invalid bind: "127.0.0.1:99999"' })), /Not a valid port or IP:port: 127\.0\.0\.1:99999/, /端口或 IP:端口无效：127\.0\.0\.1:99999/],
    [sample('BAD_REQUEST', 'Cannot delete action while active rules are depending on it', 400, { rules: ['r1', 'r2'] }), /r1, r2/, /r1, r2/],
  ];
  for (const [error, en, zh] of cases) {
    setLocale('en');
    const english = errorText(error);
    assert.match(english, en, english);
    setLocale('zh');
    assert.match(errorText(error), zh, errorText(error));
    for (const text of [english, errorText(error)]) {
      assert.not.match(text, /[{}]|\b[A-Z]+_[A-Z_]+\b|badrpc|bad_url/, text);
    }
    assert.ok(errorDetail(error)?.includes(error.message), 'the raw text in the details');
  }
  setLocale('en');
});

// Changed with issue #34: the server's words, prose or not, only under Details (errorDetail).
test('an unknown reason shows the code\'s sentence; the server\'s words stay under Details', () => {
  setLocale('en');
  assert.is(errorText(sample('BAD_REQUEST', 'timeout cannot be less than 5000ms')), 'The request has invalid parameters');
  assert.is(errorDetail(sample('BAD_REQUEST', 'timeout cannot be less than 5000ms')), '400 BAD_REQUEST: timeout cannot be less than 5000ms');
  assert.is(errorText(sample('BAD_REQUEST', '{error,{shutdown,econnreset}}')), 'The request has invalid parameters');
  assert.is(errorText(sample('SOMETHING_NEW', 'ANOTHER_CODE happened')), 'Operation failed');
  assert.is(errorText(sample('NOT_FOUND', 'NOT_FOUND', 404)), 'Not found');
  const validation = (reason: string) => sample('BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: 'listeners.tcp.default.bind', reason }));
  // A bind the broker's validator refuses is a known reason (errorCatalog.ts), said with its value.
  assert.is(errorText(validation('invalid bind: "x:1"')), 'Not a valid port or IP:port: x:1');
  assert.is(errorText(validation('{bad_ip,"x"}')), 'The value of bind is not valid');
  assert.is(errorText(validation('bind is taken')), 'The value of bind is not valid');
  // A field the broker misses reads as the form says it: '<field> is required'.
  assert.is(errorText(validation('required_field')), 'bind is required');
});

test.run();
