import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatBytes, formatDateTime, formatDuration, formatNumber } from '../../web/lib/format';
import { setLocale } from '../../web/lib/i18n';

setLocale('en');

/** Runs `fn` with the process in time zone `tz` (Node re-reads TZ when it changes). */
function inTimeZone(tz: string, fn: () => void) {
  const previous = process.env.TZ;
  process.env.TZ = tz;
  try {
    fn();
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

const dates: [number | string | Date, string][] = [
  [Date.UTC(2024, 0, 2, 3, 4, 5, 678), '2024-01-02 11:04:05'],
  ['2024-01-02T03:04:05Z', '2024-01-02 11:04:05'],
  ['2024-01-02T03:04:05.123+08:00', '2024-01-02 03:04:05'],
  ['2024-12-31 23:59:59-01:00', '2025-01-01 08:59:59'],
  ['1704164645000', '2024-01-02 11:04:05'],
  [new Date(Date.UTC(1999, 8, 9, 16, 0, 0)), '1999-09-10 00:00:00'],
  [0, '1970-01-01 08:00:00'],
];

for (const [input, expected] of dates) {
  test(`formatDateTime shows ${JSON.stringify(input)} as ${expected} in UTC+8 local time`, () => {
    inTimeZone('Asia/Shanghai', () => assert.is(formatDateTime(input), expected));
  });
}

test('formatDateTime follows the local time zone', () => {
  inTimeZone('UTC', () => assert.is(formatDateTime('2024-01-02T03:04:05Z'), '2024-01-02 03:04:05'));
  inTimeZone('America/New_York', () => assert.is(formatDateTime('2024-07-02T03:04:05Z'), '2024-07-01 23:04:05'));
});

test('formatDateTime returns the placeholder for missing values and the input when unparsable', () => {
  assert.is(formatDateTime(undefined), '');
  assert.is(formatDateTime(null), '');
  assert.is(formatDateTime(''), '');
  assert.is(formatDateTime(undefined, '-'), '-');
  assert.is(formatDateTime('not a date'), 'not a date');
});

const sizes: [number, string][] = [
  [0, '0 Byte'],
  [1, '1 Byte'],
  [1023, '1023 Byte'],
  [1024, '1 KB'],
  [1536, '1.5 KB'],
  [1234567, '1.18 MB'],
  [1024 ** 2, '1 MB'],
  [5 * 1024 ** 3, '5 GB'],
  [2048 * 1024 ** 3, '2048 GB'],
  [1024 * 1024 - 1, '1024 KB'],
];

for (const [n, expected] of sizes) {
  test(`formatBytes shows ${n} as ${expected}`, () => {
    assert.is(formatBytes(n), expected);
  });
}

test('formatBytes returns an empty string for missing or non-finite values', () => {
  assert.is(formatBytes(undefined), '');
  assert.is(formatBytes(NaN), '');
  assert.is(formatBytes(Infinity), '');
});

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const durations: [number, string][] = [
  [0, '0ms'],
  [250, '250ms'],
  [59 * second, '59s'],
  [90 * second, '1m 30s'],
  [3 * day + 4 * hour + 5 * minute, '3d 4h'],
  [day + 5 * minute, '1d'],
  [2 * hour + 59 * second, '2h'],
  [45 * day, '45d'],
];

for (const [ms, expected] of durations) {
  test(`formatDuration shows ${ms} ms as ${expected}`, () => {
    assert.is(formatDuration(ms), expected);
  });
}

test('formatDuration shows more units on request and nothing for invalid input', () => {
  assert.is(formatDuration(3 * day + 4 * hour + 5 * minute + 6 * second, 4), '3d 4h 5m 6s');
  assert.is(formatDuration(-1), '');
  assert.is(formatDuration(undefined), '');
});

test('formatDuration and formatNumber follow the language', () => {
  setLocale('zh');
  try {
    assert.is(formatDuration(3 * day + 4 * hour), '3 天 4 小时');
    assert.is(formatNumber(1234567.891), '1,234,567.89');
  } finally {
    setLocale('en');
  }
});

test('formatNumber groups thousands and keeps at most two decimals', () => {
  assert.is(formatNumber(1234567), '1,234,567');
  assert.is(formatNumber(0.125), '0.13');
  assert.is(formatNumber(-42), '-42');
  assert.is(formatNumber(undefined), '');
  assert.is(formatNumber(NaN), '');
});

test.run();
