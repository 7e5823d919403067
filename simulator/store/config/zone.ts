// The global zone config (GET/PUT /configs/global_zone, emqx-api-part1 §15 and §22.2): mqtt,
// flapping_detect, force_shutdown and force_gc with EMQX's defaults. A PUT merges: only the keys
// it names change. Other modules read the live values through `get()`.
import { apiError } from '../../plugins/errors.ts';
import { clone } from '../access/auth-common.ts';
import { ConfigError, rootFields, validateStruct } from './config-roots.ts';
import type { StoreContext } from '../context.ts';
import { DEFAULTS, type Profile } from '../profile.ts';
import { durationMs } from '../messaging/slow-subs.ts';

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

/** Where the profile's FIELDS table names the zone's fields. */
const ZONE_PATH = '/configs/global_zone';

export function defaultZone(profile: Profile): ZoneConfig {
  return {
    mqtt: {
      idle_timeout: '15s', max_packet_size: '1MB', max_clientid_len: 65535, max_topic_levels: 128, max_topic_alias: 65535,
      retain_available: true, wildcard_subscription: true, shared_subscription: true, shared_subscription_strategy: 'round_robin',
      shared_subscription_initial_sticky_pick: 'random', exclusive_subscription: false, ignore_loop_deliver: false, strict_mode: false,
      response_information: '', server_keepalive: 'disabled', keepalive_multiplier: 1.5, keepalive_check_interval: '30s',
      retry_interval: DEFAULTS.retryInterval(profile), use_username_as_clientid: false, peer_cert_as_username: 'disabled', peer_cert_as_clientid: 'disabled',
      client_attrs_init: [], clientid_override: 'disabled', session_expiry_interval: '2h', message_expiry_interval: 'infinity',
      max_awaiting_rel: 100, max_qos_allowed: 2, mqueue_priorities: 'disabled', mqueue_default_priority: 'lowest',
      mqueue_store_qos0: true, max_mqueue_len: 1000, max_inflight: 32, max_subscriptions: 'infinity', upgrade_qos: false,
      await_rel_timeout: '300s',
    },
    flapping_detect: { enable: false, window_time: '1m', max_count: 15, ban_time: '5m' },
    force_shutdown: { enable: true, max_mailbox_size: 1000, max_heap_size: '32MB' },
    force_gc: { enable: true, count: 16000, bytes: '16MB' },
    durable_sessions: {
      enable: false, batch_size: 100, idle_poll_interval: '10s', heartbeat_interval: '5000ms', session_gc_interval: '10m',
      session_gc_batch_size: 100, message_retention_period: '1d',
    },
  };
}

function failed(message: string): Error {
  return apiError(400, 'UPDATE_FAILED', message);
}

// Values may switch between a number and a string ("infinity", "disabled", durations in ms).
function sameKind(a: unknown, b: unknown): boolean {
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v === 'number' || typeof v === 'string' ? 'scalar' : typeof v);
  return kind(a) === kind(b);
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

  /** Merges the named sub-objects' keys into the config; refuses unknown keys and wrong types. */
  async update(body: Json): Promise<ZoneConfig> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw failed('the body must be an object');
    const current = this.data as unknown as Record<string, Json>;
    const next = clone(current);
    for (const [root, value] of Object.entries(body)) {
      if (!(root in current)) throw failed(`unknown config root: ${root}`);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw failed(`${root} must be an object`);
      for (const [key, v] of Object.entries(value as Json)) {
        if (!(key in current[root])) throw failed(`${root}.${key}: unknown field`);
        if (!sameKind(current[root][key], v)) throw failed(`${root}.${key}: wrong type`);
        next[root][key] = clone(v);
      }
    }
    // Ranges, enums and duration/bytesize syntax of the mqtt keys, from the schema reference,
    // answered with the offending path as the other config roots are.
    try {
      // Only the keys that change: a few live defaults (retry_interval "infinity" from 5.8) differ from the 5.5 reference.
      const changed = Object.fromEntries(Object.entries(next.mqtt).filter(([key, v]) => JSON.stringify(v) !== JSON.stringify(current.mqtt[key])));
      if (rootFields('mqtt').length) validateStruct('mqtt', 'mqtt', changed, 'mqtt');
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw failed(JSON.stringify({ kind: 'validation_error', path: err.path, reason: err.reason, value: err.value }));
    }
    const f = next.flapping_detect;
    for (const key of ['window_time', 'ban_time']) {
      if ((typeof f[key] === 'number' ? f[key] : durationMs(String(f[key]))) === null) throw failed(`flapping_detect.${key}: invalid duration`);
    }
    if (!Number.isInteger(f.max_count) || f.max_count < 0) throw failed('flapping_detect.max_count: must be a non-negative integer');
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
