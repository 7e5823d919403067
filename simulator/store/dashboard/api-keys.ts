// API keys (emqx_mgmt_auth): Basic `key:secret` credentials for scripts. The secret is shown once,
// in the POST answer, and only its hash is kept (security.md S6). Limits and messages follow
// emqx-api-part1 §4.
import { randomBytes } from 'node:crypto';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { hashSecret, verifySecret } from './passwords.ts';
import type { ApiKeyRecord, ApiKeyRole } from '../state.ts';
import { rfc3339 } from '../../lib/time.ts';

/** EMQX refuses the 101st key. */
export const MAX_API_KEYS = 100;

export interface ApiKeyView {
  name: string;
  api_key: string;
  expired_at: string;
  created_at: string;
  desc: string;
  enable: boolean;
  expired: boolean;
  /** RBAC (Enterprise); the profile leaves it out elsewhere. */
  role: ApiKeyRole;
}

export interface ApiKeyInput {
  desc?: string;
  enable?: boolean;
  /** Epoch ms, or null for "infinity". */
  expired_at: number | null;
  /** emqx_mgmt_api_api_keys.erl: an omitted role is the default, administrator (create and update). */
  role?: ApiKeyRole;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// EMQX encodes the 32 random bytes of a secret in base62.
function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out || '0';
}

export class ApiKeys {
  constructor(private readonly ctx: StoreContext) {}

  private find(name: string): ApiKeyRecord {
    const record = this.ctx.state.api_keys.find((k) => k.name === name);
    if (!record) throw apiError(404, 'NOT_FOUND', 'Name NOT FOUND');
    return record;
  }

  private isExpired(record: ApiKeyRecord): boolean {
    return record.expired_at !== null && record.expired_at <= this.ctx.clock.now();
  }

  private view(record: ApiKeyRecord): ApiKeyView {
    return {
      name: record.name,
      api_key: record.api_key,
      expired_at: record.expired_at === null ? 'infinity' : rfc3339(record.expired_at),
      created_at: rfc3339(record.created_at),
      desc: record.desc,
      enable: record.enable,
      expired: this.isExpired(record),
      role: record.role ?? 'administrator',
    };
  }

  list(): ApiKeyView[] {
    return this.ctx.state.api_keys.map((k) => this.view(k));
  }

  get(name: string): ApiKeyView {
    return this.view(this.find(name));
  }

  /** Creates a key; the answer is the only place the secret ever appears. */
  async create(name: string, input: ApiKeyInput): Promise<ApiKeyView & { api_secret: string }> {
    const keys = this.ctx.state.api_keys;
    if (keys.some((k) => k.name === name)) throw apiError(400, 'BAD_REQUEST', 'name_already_existed');
    // EMQX prints this reason with its quotes.
    if (keys.length >= MAX_API_KEYS) throw apiError(400, 'BAD_REQUEST', '"Maximum number of ApiKeys reached."');
    const secret = base62(randomBytes(32));
    const record: ApiKeyRecord = {
      name,
      api_key: randomBytes(8).toString('hex'),
      secret_hash: hashSecret(secret),
      desc: input.desc ?? '',
      enable: input.enable ?? true,
      expired_at: input.expired_at,
      created_at: this.ctx.clock.now(),
      role: input.role ?? 'administrator',
    };
    keys.push(record);
    await this.ctx.persist();
    return { ...this.view(record), api_secret: secret };
  }

  /** Updates a key; an omitted `expired_at` resets it to infinity, as EMQX does. */
  async update(name: string, input: ApiKeyInput): Promise<ApiKeyView> {
    const record = this.find(name);
    if (input.desc !== undefined) record.desc = input.desc;
    if (input.enable !== undefined) record.enable = input.enable;
    record.expired_at = input.expired_at;
    // Without RBAC (Community) the field cannot be given: a role stored by Enterprise stays, so a
    // change of edition never raises it (security.md S28).
    if (this.ctx.profile.hasApp('emqx_dashboard_rbac')) record.role = input.role ?? 'administrator';
    await this.ctx.persist();
    return this.view(record);
  }

  async remove(name: string): Promise<void> {
    const record = this.find(name);
    this.ctx.state.api_keys.splice(this.ctx.state.api_keys.indexOf(record), 1);
    await this.ctx.persist();
  }

  /** Checks Basic credentials: the key must exist, be enabled, unexpired, and the secret match. */
  authenticate(apiKey: string, secret: string): { name: string; role: ApiKeyRole } | null {
    const record = this.ctx.state.api_keys.find((k) => k.api_key === apiKey);
    if (!record || !verifySecret(secret, record.secret_hash)) return null;
    if (!record.enable || this.isExpired(record)) return null;
    return { name: record.name, role: record.role ?? 'administrator' };
  }
}
