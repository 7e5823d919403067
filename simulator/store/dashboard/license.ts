// The license of GET /license and its watermark setting (emqx_license_http_api, emqx-api-part1
// §7): a plausible license object whose `max_connections` is the connection quota the dashboard
// shows and the `license_quota` alarm watches. POST /license takes a key signed by EMQ (checked
// against the broker's public key, as emqx_license_parser.erl does) or `default`, EMQX's built-in
// evaluation license; the key in use and the setting are persisted.
import { verify } from 'node:crypto';
import type { Clock } from '../../plugins/clock.ts';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';

export interface LicenseInfo {
  customer: string;
  email: string;
  deployment: string;
  max_connections: number;
  start_at: string;
  expiry_at: string;
  type: 'official' | 'trial';
  customer_type: number;
  expiry: boolean;
  max_sessions: number;
  /** Messages per second the license allows (6.x; a key without the tenth line allows any). */
  max_tps: number | 'infinity';
}

export interface LicenseSetting {
  connection_low_watermark: string;
  connection_high_watermark: string;
}

/** What buildApp may override; dates are `YYYY-MM-DD`. */
export interface LicenseOptions {
  customer: string;
  email: string;
  deployment: string;
  max_connections: number;
  type: 'official' | 'trial';
  customer_type: number;
  start_at: string;
  expiry_at: string;
}

export const DEFAULT_LICENSE_SETTING: LicenseSetting = { connection_low_watermark: '75%', connection_high_watermark: '80%' };

const DAY = 86_400_000;

// emqx_license_parser.erl ?PUBKEY: the key EMQ signs licenses with.
const EMQX_LICENSE_PUBKEY = [
  '-----BEGIN PUBLIC KEY-----',
  'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEbtkdos3TZmSv+D7+X5pc0yfcjum2',
  'Q1DK6PCWkiQihjvjJjKFzdYzcWOgC6f4Ou3mgGAUSjdQYYnFKZ/9f5ax4g==',
  '-----END PUBLIC KEY-----',
  '',
].join('\n');

// emqx_license_schema.erl default_license/0: the evaluation license (25 connections) every
// Enterprise build starts with, what the key `default` stands for.
export const DEFAULT_LICENSE_KEY =
  'MjIwMTExCjAKMTAKRXZhbHVhdGlvbgpjb250YWN0QGVtcXguaW8KdHJpYWwKMjAyMzEyMDgKMTgyNQoyNQo=.'
  + 'MEUCIE271MtH+4bb39OZKD4mvVkurwZ3LX44KUvuOxkbjQz2AiEAqL7BP44PMUS5z5SAN1M4y3v3h47J8qORAqcuetnyexw=';

/**
 * The license a key describes (emqx_license_parser_v20220101.erl: base64 payload `.` base64
 * ECDSA-SHA256 signature; payload lines version 220111, type, customer type, customer, email,
 * deployment, start date YYYYMMDD, days, max connections), or null when it is not a valid key.
 */
export function parseLicenseKey(key: string): LicenseOptions | null {
  const text = (key === 'default' ? DEFAULT_LICENSE_KEY : key).replace(/[\s]/g, '');
  const dot = text.indexOf('.');
  if (dot <= 0) return null;
  const payload = Buffer.from(text.slice(0, dot), 'base64');
  const signature = Buffer.from(text.slice(dot + 1), 'base64');
  let valid = false;
  try {
    valid = verify('sha256', payload, EMQX_LICENSE_PUBKEY, signature);
  } catch {
    valid = false;
  }
  if (!valid) return null;
  const lines = payload.toString('utf8').trim().split('\n').map((l) => l.trim());
  if (lines.length !== 9 || lines[0] !== '220111') return null;
  const [, type, ctype, customer, email, deployment, start, days, max] = lines;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(start);
  if (!m || !/^[01]$/.test(type) || !/^\d+$/.test(ctype) || !/^\d+$/.test(days) || !/^\d+$/.test(max)) return null;
  const startMs = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return {
    customer, email, deployment, max_connections: Number(max),
    type: type === '1' ? 'official' : 'trial', customer_type: Number(ctype),
    start_at: isoDate(startMs), expiry_at: isoDate(startMs + Number(days) * DAY),
  };
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `"80%"` → 0.8, or null when not a percentage between 0 and 100. */
export function parsePercent(value: string): number | null {
  const match = /^(\d{1,3}(?:\.\d+)?)%$/.exec(value);
  const n = match ? Number(match[1]) : Number.NaN;
  return n >= 0 && n <= 100 ? n / 100 : null;
}

export class License {
  private readonly builtIn: LicenseOptions;
  private options: LicenseOptions;

  constructor(
    private readonly ctx: StoreContext,
    clock: Clock,
    overrides: Partial<LicenseOptions> = {},
  ) {
    // A yearly license bought some months before the simulator started.
    const start = clock.now() - 120 * DAY;
    this.builtIn = {
      customer: 'Example Industrial Co., Ltd.',
      email: 'iot-ops@example.com',
      deployment: 'plant-cluster-a',
      max_connections: 10_000,
      type: 'official',
      customer_type: 0,
      start_at: isoDate(start),
      expiry_at: isoDate(start + 365 * DAY),
      ...overrides,
    };
    this.options = this.fromState();
    ctx.onStateReplaced(() => {
      this.options = this.fromState();
    });
  }

  /** The license of the persisted key, or the simulator's own. */
  private fromState(): LicenseOptions {
    const key = this.ctx.state.license_key;
    return (key !== undefined ? parseLicenseKey(key) : null) ?? this.builtIn;
  }

  /** POST /license: installs a key signed by EMQ, or `default`; 400 "Bad license key" otherwise. */
  async updateKey(key: string): Promise<LicenseInfo> {
    const parsed = parseLicenseKey(key);
    if (!parsed) throw apiError(400, 'BAD_REQUEST', 'Bad license key');
    this.ctx.state.license_key = key;
    await this.ctx.persist();
    this.options = parsed;
    return this.info();
  }

  /** The connection quota. */
  get quota(): number {
    return this.options.max_connections;
  }

  info(): LicenseInfo {
    const o = this.options;
    // Expired once the expiry day has passed.
    const expiry = this.ctx.clock.now() >= Date.parse(`${o.expiry_at}T00:00:00Z`) + DAY;
    return {
      customer: o.customer, email: o.email, deployment: o.deployment, max_connections: o.max_connections,
      start_at: o.start_at, expiry_at: o.expiry_at, type: o.type, customer_type: o.customer_type, expiry,
      max_sessions: o.max_connections, max_tps: 'infinity',
    };
  }

  setting(): LicenseSetting {
    return { ...(this.ctx.state.license_setting ?? DEFAULT_LICENSE_SETTING) };
  }

  /** Watermarks as fractions. */
  watermarks(): { low: number; high: number } {
    const s = this.setting();
    return { low: parsePercent(s.connection_low_watermark) ?? 0.75, high: parsePercent(s.connection_high_watermark) ?? 0.8 };
  }

  async updateSetting(setting: LicenseSetting): Promise<LicenseSetting> {
    const low = parsePercent(setting.connection_low_watermark);
    const high = parsePercent(setting.connection_high_watermark);
    if (low === null || high === null || low > high) throw apiError(400, 'BAD_REQUEST', 'Bad license setting');
    this.ctx.state.license_setting = {
      connection_low_watermark: setting.connection_low_watermark,
      connection_high_watermark: setting.connection_high_watermark,
    };
    await this.ctx.persist();
    return this.setting();
  }
}
