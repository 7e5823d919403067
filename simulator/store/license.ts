// The license of GET /license and its watermark setting (emqx_license_http_api, emqx-api-part1
// §7): a plausible license object whose `max_connections` is the connection quota the dashboard
// shows and the `license_quota` alarm watches. Keys cannot be uploaded; the setting is persisted.
import type { Clock } from '../plugins/clock.ts';
import { apiError } from '../plugins/errors.ts';
import type { StoreContext } from './context.ts';

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
  private readonly options: LicenseOptions;

  constructor(
    private readonly ctx: StoreContext,
    clock: Clock,
    overrides: Partial<LicenseOptions> = {},
  ) {
    // A yearly license bought some months before the simulator started.
    const start = clock.now() - 120 * DAY;
    this.options = {
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
      max_sessions: o.max_connections,
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
