// The HOCON subset of EMQX config files (simulator/lib/hocon.ts): EMQX-style text reads into
// the expected objects (separators, dotted keys that merge, comments, quoting, triple quotes),
// syntax errors carry line and column, and writing then reading any JSON config gives it back.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HoconError, parseHocon, writeHocon, type HoconObject, type HoconValue } from '../../simulator/lib/hocon.ts';

test('an emqx.conf-style file with every kind of entry', () => {
  const text = `
# Node settings
node {
  name = "emqx@127.0.0.1"
  cookie = "emqxsecretcookie"
  data_dir = "data"
}

log.console.level = info   // trailing comment
log.console.enable = true
log {
  file { enable: false, rotation_size = 50MB }
}

mqtt {
  idle_timeout = 15s
  max_packet_size = 1MB
  max_inflight = 32,
  keepalive_multiplier = 1.5
  retry_interval = infinity
  response_information = ""
  client_attrs_init = []
}
listeners.tcp.default {
  bind = "0.0.0.0:1883"
  max_connections = 1024000
  access_rules = ["allow all"]
}
retainer.backend.index_specs = [[1, 2, 3], [1, 3], [3]]
authorization.sources = [
  { type = file, enable = true, path = "\${EMQX_ETC_DIR}/acl.conf" }
  {
    type = built_in_database
    enable = false
  }
]
sys_topics.sys_event_messages.client_connected = true
cluster.discovery_strategy = manual
nothing = null
negative = -12
exp = 1e3
`;
  assert.equal(parseHocon(text), {
    node: { name: 'emqx@127.0.0.1', cookie: 'emqxsecretcookie', data_dir: 'data' },
    log: { console: { level: 'info', enable: true }, file: { enable: false, rotation_size: '50MB' } },
    mqtt: {
      idle_timeout: '15s', max_packet_size: '1MB', max_inflight: 32, keepalive_multiplier: 1.5, retry_interval: 'infinity',
      response_information: '', client_attrs_init: [],
    },
    listeners: { tcp: { default: { bind: '0.0.0.0:1883', max_connections: 1024000, access_rules: ['allow all'] } } },
    retainer: { backend: { index_specs: [[1, 2, 3], [1, 3], [3]] } },
    authorization: {
      sources: [
        { type: 'file', enable: true, path: '${EMQX_ETC_DIR}/acl.conf' },
        { type: 'built_in_database', enable: false },
      ],
    },
    sys_topics: { sys_event_messages: { client_connected: true } },
    cluster: { discovery_strategy: 'manual' },
    nothing: null,
    negative: -12,
    exp: 1000,
  });
});

test('repeated object keys merge, a later scalar replaces, quoted keys keep their dots', () => {
  assert.equal(parseHocon('a { x = 1, y = 2 }\na { y = 3 }\na.z = 4\nb = 1\nb = 2\n"c.d" = e'), { a: { x: 1, y: 3, z: 4 }, b: 2, 'c.d': 'e' });
  assert.equal(parseHocon('a = {x = 1}\na = 5'), { a: 5 });
});

test('strings: escapes, triple quotes, unquoted with spaces, braces around the whole document', () => {
  assert.equal(parseHocon('s = "tab\\there \\"q\\" \\u00e9 \\\\ /"'), { s: 'tab\there "q" é \\ /' });
  assert.equal(parseHocon('t = """line 1\n"line 2" \\n"""'), { t: 'line 1\n"line 2" \\n' });
  assert.equal(parseHocon('u = allow all # comment'), { u: 'allow all' });
  assert.equal(parseHocon('{ a: 1, b: "x" }'), { a: 1, b: 'x' });
  assert.equal(parseHocon(''), {});
  assert.equal(parseHocon('# only a comment\n// another\n'), {});
  assert.equal(parseHocon('rate = 1000/s\nurl = "http://h:9091" // c'), { rate: '1000/s', url: 'http://h:9091' });
});

function errorOf(text: string): HoconError {
  try {
    parseHocon(text);
  } catch (err) {
    if (err instanceof HoconError) return err;
    throw err;
  }
  throw new Error(`no error for ${JSON.stringify(text)}`);
}

test('syntax errors name the line and column', () => {
  const missingBrace = errorOf('log {\n  level = info\n');
  assert.is(missingBrace.line, 3);
  assert.match(missingBrace.message, /missing "}"/);
  const noValue = errorOf('a = 1\nb\n');
  assert.is(noValue.line, 2);
  assert.match(noValue.message, /line 2, column 2: expected "=", ":" or "\{" after "b"/);
  const badEscape = errorOf('x {\n  s = "a\\qb"\n}');
  assert.equal([badEscape.line, badEscape.column], [2, 9]);
  const unterminated = errorOf('s = "abc');
  assert.equal([unterminated.line, unterminated.column], [1, 5]);
  assert.is(errorOf('a = [1, 2').reason, 'missing "]"');
  assert.is(errorOf('a = 1 }').line, 1);
  assert.is(errorOf('a = ').reason, 'unexpected end of input, expected a value');
});

test('the writer prints nested objects with two-space indents and quotes only where needed', () => {
  const text = writeHocon({
    log: { console: { level: 'warning', enable: true }, file: {} },
    mqtt: { max_packet_size: '1MB', retry_interval: 'infinity', response_information: '', keepalive_multiplier: 1.5 },
    odd: { 'a.b': 'true', n: '12', path: '${EMQX_LOG_DIR}/emqx.log', list: ['allow all', 1, null] },
  });
  assert.is(text, [
    'log {',
    '  console {',
    '    level = warning',
    '    enable = true',
    '  }',
    '  file {}',
    '}',
    'mqtt {',
    '  max_packet_size = 1MB',
    '  retry_interval = infinity',
    '  response_information = ""',
    '  keepalive_multiplier = 1.5',
    '}',
    'odd {',
    '  "a.b" = "true"',
    '  n = "12"',
    '  path = "${EMQX_LOG_DIR}/emqx.log"',
    '  list = ["allow all", 1, null]',
    '}',
    '',
  ].join('\n'));
});

const REFUSED_KEYS = ['__proto__', 'constructor', 'prototype'];

test('keys that name prototype machinery are refused, quoted or dotted, with their place', () => {
  for (const key of REFUSED_KEYS) {
    for (const text of [`${key} = 1`, `a.${key}.b = 1`, `"${key}" = 1`, `a { ${key} { b = 1 } }`]) {
      assert.throws(() => parseHocon(text), (e: unknown) => e instanceof HoconError && e.message.includes(`forbidden key "${key}"`), text);
    }
  }
  assert.equal(Object.getPrototypeOf(parseHocon('a = 1')), Object.prototype);
});

// JSON config objects: any key (but __proto__, constructor and prototype, which the reader refuses),
// strings of any characters, finite numbers, nested arrays and objects.
const { config } = fc.letrec<{ value: HoconValue; config: HoconObject }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary' }),
    fc.constantFrom('15s', '1MB', 'infinity', 'true', 'null', '12', '-1.5', 'a.b', 'allow all', '1000/s', '${X}', '# no', '// no', '"""', ''),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('config'),
  ),
  config: fc.dictionary(
    fc
      .oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('a.b', 'true', '0', 'key with space', ''))
      .filter((key) => !REFUSED_KEYS.includes(key)),
    tie('value'),
    { maxKeys: 5 },
  ),
}));

test('parse(write(x)) gives x back for generated JSON config objects', () => {
  fc.assert(
    fc.property(config, (x) => {
      const text = writeHocon(x);
      assert.equal(parseHocon(text), JSON.parse(JSON.stringify(x)), text);
      return true;
    }),
    { numRuns: 400 },
  );
});

test.run();
