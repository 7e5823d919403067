import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setLocale } from '../../web/lib/i18n';
import { connackLabel, reasonCodeKey, reasonCodeLabel } from '../../web/lib/reasonCodes';

setLocale('en');

/** Every code of MQTT 5 table 2-6 with the meaning the spec gives it. */
const reasonCodes: [number, RegExp][] = [
  [0x00, /^Success$/],
  [0x01, /Granted QoS 1/],
  [0x02, /Granted QoS 2/],
  [0x04, /Disconnect with Will/],
  [0x10, /No matching subscribers/],
  [0x11, /No subscription existed/],
  [0x18, /Continue authentication/],
  [0x19, /Re-authenticate/],
  [0x80, /Unspecified error/],
  [0x81, /Malformed Packet/],
  [0x82, /Protocol Error/],
  [0x83, /Implementation specific error/],
  [0x84, /Unsupported Protocol Version/],
  [0x85, /Client Identifier not valid/],
  [0x86, /Bad User Name or Password/],
  [0x87, /Not authorized/],
  [0x88, /Server unavailable/],
  [0x89, /Server busy/],
  [0x8a, /Banned/],
  [0x8b, /Server shutting down/],
  [0x8c, /Bad authentication method/],
  [0x8d, /Keep Alive timeout/],
  [0x8e, /Session taken over/],
  [0x8f, /Topic Filter invalid/],
  [0x90, /Topic Name invalid/],
  [0x91, /Packet Identifier in use/],
  [0x92, /Packet Identifier not found/],
  [0x93, /Receive Maximum exceeded/],
  [0x94, /Topic Alias invalid/],
  [0x95, /Packet too large/],
  [0x96, /Message rate too high/],
  [0x97, /Quota exceeded/],
  [0x98, /Administrative action/],
  [0x99, /Payload format invalid/],
  [0x9a, /Retain not supported/],
  [0x9b, /QoS not supported/],
  [0x9c, /Use another server/],
  [0x9d, /Server moved/],
  [0x9e, /Shared Subscriptions not supported/],
  [0x9f, /Connection rate exceeded/],
  [0xa0, /Maximum connect time/],
  [0xa1, /Subscription Identifiers not supported/],
  [0xa2, /Wildcard Subscriptions not supported/],
];

for (const [code, meaning] of reasonCodes) {
  const hex = `0x${code.toString(16).padStart(2, '0')}`;
  test(`reason code ${hex} is labelled ${meaning.source} in English and has its own Chinese label`, () => {
    const en = reasonCodeLabel(code);
    assert.match(en, meaning);
    setLocale('zh');
    try {
      const zh = reasonCodeLabel(code);
      assert.is.not(zh, en);
      assert.not.match(zh, /0x/);
      assert.ok(/[\u4e00-\u9fff]/.test(zh), `Chinese label for ${hex}: ${zh}`);
    } finally {
      setLocale('en');
    }
  });
}

test('every known reason code has a distinct label in each language', () => {
  for (const locale of ['en', 'zh'] as const) {
    setLocale(locale);
    const labels = reasonCodes.map(([code]) => reasonCodeLabel(code));
    assert.is(new Set(labels).size, labels.length, `duplicate ${locale} label`);
  }
  setLocale('en');
});

test('reason code 0x00 reads as granted QoS 0 in SUBACK and normal disconnection in DISCONNECT', () => {
  assert.is(reasonCodeLabel(0, 'suback'), 'Granted QoS 0');
  assert.is(reasonCodeLabel(0, 'disconnect'), 'Normal disconnection');
  assert.is(reasonCodeLabel(0x87, 'suback'), 'Not authorized');
});

test('codes outside the MQTT 5 table get a generic label with their hex value', () => {
  assert.is(reasonCodeLabel(0x03), 'Unknown reason code 0x03');
  assert.is(reasonCodeLabel(0xa3), 'Unknown reason code 0xA3');
  assert.is(reasonCodeLabel(0xff), 'Unknown reason code 0xFF');
  assert.match(reasonCodeLabel(-1), /^Unknown reason code/);
});

test('reason code keys use two upper-case hex digits', () => {
  assert.is(reasonCodeKey(0x8a), 'mqtt.reason.0x8A');
  assert.is(reasonCodeKey(4), 'mqtt.reason.0x04');
});

const connack: [number, RegExp][] = [
  [0, /accepted/i],
  [1, /unacceptable protocol version/],
  [2, /identifier rejected/],
  [3, /server unavailable/],
  [4, /bad username or password/],
  [5, /not authorized/],
];

for (const [code, meaning] of connack) {
  test(`CONNACK return code ${code} reads ${meaning.source}`, () => {
    assert.match(connackLabel(code), meaning);
  });
}

test('every CONNACK return code 0-5 has distinct Chinese and English labels', () => {
  const en = connack.map(([code]) => connackLabel(code));
  setLocale('zh');
  const zh = connack.map(([code]) => connackLabel(code));
  setLocale('en');
  assert.is(new Set(en).size, 6);
  assert.is(new Set(zh).size, 6);
  for (let i = 0; i < 6; i += 1) {
    assert.is.not(zh[i], en[i]);
    assert.ok(/[\u4e00-\u9fff]/.test(zh[i]), `Chinese label for ${i}: ${zh[i]}`);
  }
});

test('an unknown CONNACK return code is labelled with its number', () => {
  assert.is(connackLabel(6), 'Unknown connect return code 6');
  assert.is(connackLabel(0x87), 'Unknown connect return code 135');
});

test.run();
