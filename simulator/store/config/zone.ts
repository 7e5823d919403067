// The global zone config (GET/PUT /configs/global_zone, emqx_mgmt_api_configs.erl
// global_zone_configs/3): mqtt, flapping_detect, force_shutdown, force_gc and (from 5.7)
// durable_sessions, each with its release's defaults (release-tree.ts; emqx_zone_schema.erl
// global_zone_with_default/0 lists them). A PUT is checked root by root as the broker's request
// filter checks a list of fields (emqx_dashboard_swagger.erl check_request_body/5: the first root
// with problems answers 400 BAD_REQUEST with its paths, `mqtt.idle_timeout`, no `root.`), then
// merges: only the keys it names change. Other modules read the live values through `get()`.
import { checkValue } from '../../lib/hocon-check/check.ts';
import { formatErrors } from '../../lib/hocon-check/format.ts';
import { apiError } from '../../plugins/errors.ts';
import { clone } from '../access/auth-common.ts';
import { rootDefaults } from './config-roots.ts';
import type { StoreContext } from '../context.ts';
import { DEFAULTS, type Profile } from '../profile.ts';
import { durationMs } from '../messaging/slow-subs.ts';
import { checkOptions, rootType } from './schema-check.ts';

type Json = Record<string, any>;

export interface FlappingDetect {
  enable: boolean;
  window_time: string;
  max_count: number;
  ban_time: string;
}

export interface ZoneConfig {
  mqtt: Json;
  flapping_detect: FlappingDetect;
  force_shutdown: { enable: boolean; max_mailbox_size: number; max_heap_size: string };
  force_gc: { enable: boolean; count: number; bytes: string };
  /** 5.7+ (the profile leaves it out before): emqx_schema.erl fields("durable_sessions"), hidden ones left out. */
  durable_sessions: Json;
}

/** emqx_zone_schema.erl roots() -- hidden(), in that order. */
const ZONE_ROOTS = ['mqtt', 'flapping_detect', 'force_shutdown', 'force_gc', 'durable_sessions'] as const;

/** Where the profile's FIELDS table names the zone's fields. */
const ZONE_PATH = '/configs/global_zone';

/**
 * durable_sessions as 5.7 and 5.8 answer it: their dumps have no such root (the settings are
 * hidden there), so the non-hidden fields of emqx_schema.erl fields("durable_sessions") at e5.8.9.
 */
const DURABLE_SESSIONS_5_8 = {
  enable: false, batch_size: 100, idle_poll_interval: '10s', heartbeat_interval: '5000ms', session_gc_interval: '10m',
  session_gc_batch_size: 100, message_retention_period: '1d',
};

export function defaultZone(profile: Profile): ZoneConfig {
  const of = (root: string) => rootDefaults(root, profile.version);
  const durable = of('durable_sessions');
  return {
    mqtt: { ...of('mqtt'), retry_interval: DEFAULTS.retryInterval(profile) },
    flapping_detect: of('flapping_detect') as unknown as FlappingDetect,
    force_shutdown: of('force_shutdown') as ZoneConfig['force_shutdown'],
    force_gc: of('force_gc') as ZoneConfig['force_gc'],
    durable_sessions: Object.keys(durable).length ? durable : { ...DURABLE_SESSIONS_5_8 },
  };
}

export class Zone {
  constructor(private readonly ctx: StoreContext) {}

  /** The config with defaults filled, as the selected release has it (a fresh object). */
  private get data(): ZoneConfig {
    const stored = (this.ctx.state.zone ?? {}) as Partial<ZoneConfig>;
    const defaults = defaultZone(this.ctx.profile);
    return this.ctx.profile.strip(ZONE_PATH, {
      mqtt: { ...defaults.mqtt, ...stored.mqtt },
      flapping_detect: { ...defaults.flapping_detect, ...stored.flapping_detect },
      force_shutdown: { ...defaults.force_shutdown, ...stored.force_shutdown },
      force_gc: { ...defaults.force_gc, ...stored.force_gc },
      durable_sessions: { ...defaults.durable_sessions, ...stored.durable_sessions },
    });
  }

  /** The defaults as the selected release has them. */
  defaults(): ZoneConfig {
    return this.ctx.profile.strip(ZONE_PATH, defaultZone(this.ctx.profile));
  }

  /** The whole config with defaults filled (a copy). */
  get(): ZoneConfig {
    return clone(this.data);
  }

  /**
   * Merges the named sub-objects' keys into the config, after the broker's checks: a root of
   * the zone checked against its schema, the first with problems refused with all of them.
   */
  async update(body: Json): Promise<ZoneConfig> {
    const current = this.data as unknown as Record<string, Json>;
    const roots = ZONE_ROOTS.filter((root) => root in current);
    // The broker ignores a key that names no zone root in its check, then fails on it in the
    // handler (maps:get/2 badkey, a 500); the simulator refuses it as an unknown field.
    const unknown = Object.keys(body).filter((key) => !(roots as readonly string[]).includes(key));
    if (unknown.length) {
      throw apiError(400, 'BAD_REQUEST', formatErrors([{ kind: 'validation_error', path: 'root', reason: 'unknown_fields', unknown: unknown.sort().slice(0, 2).join(',') + (unknown.length > 2 ? ',...' : ''), unmatched: 'none' }]));
    }
    const next = clone(current);
    for (const root of roots) {
      if (!(root in body)) continue;
      const type = rootType(this.ctx.profile.version, root);
      const checked = type ? checkValue(type, body[root], checkOptions(this.ctx.profile), [root]) : { value: body[root], errors: [] };
      if (checked.errors.length) throw apiError(400, 'BAD_REQUEST', formatErrors(checked.errors));
      for (const [key, v] of Object.entries(body[root] as Json)) if (v !== null) next[root][key] = clone(v);
    }
    this.ctx.state.zone = next;
    await this.ctx.persist();
    return this.get();
  }

  /** Flapping settings with the durations in ms. */
  flapping(): { enable: boolean; windowMs: number; maxCount: number; banMs: number } {
    const f = this.data.flapping_detect;
    const ms = (v: string | number) => (typeof v === 'number' ? v : durationMs(v) ?? 0);
    return { enable: f.enable, windowMs: ms(f.window_time), maxCount: f.max_count, banMs: ms(f.ban_time) };
  }
}
