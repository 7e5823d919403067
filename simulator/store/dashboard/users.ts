// Dashboard users (emqx_dashboard_admin): create, describe, delete, change password, verify a
// login. Errors carry the EMQX codes and messages of emqx-api-part1 §3. From 5.9 on (the profile's
// FEATURES) a user also has an MFA state, scopes and a password age, kept as the broker keeps them
// in the record's `extra` map (emqx_dashboard_admin.erl at e5.10.4 and 6.2.2); the TOTP codes are
// checked by lib/totp.ts.
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { hashPassword, passwordRuleError, spendOneHash, verifyPassword } from './passwords.ts';
import { userDefaultScopes, userScopesProblem } from './scopes.ts';
import type { DashboardRole, MfaState, UserRecord } from '../state.ts';
import type { Tokens } from './tokens.ts';
import { newTotpSecret, verifyTotp } from '../../lib/totp.ts';
import { parseDuration } from '../../lib/units.ts';

/** The default user EMQX creates at first boot (`dashboard.default_username`). */
export const DEFAULT_USERNAME = 'admin';
const DEFAULT_PASSWORD = 'public';

/**
 * As emqx_dashboard_api.erl shows a user; `role` and `backend` exist only with RBAC (Enterprise),
 * `mfa` and `scopes` from 5.9 (the profile strips what a release lacks).
 */
export interface User {
  username: string;
  role: DashboardRole;
  description: string;
  backend: 'local';
  mfa: 'none' | 'disabled' | 'totp';
  /** `unset` for a record made before scopes existed (emqx_dashboard_admin.erl to_external_user/1). */
  scopes: string[] | 'unset';
}

/** The `message` of a 401 BAD_MFA_TOKEN (emqx_dashboard_mfa.erl totp_error/1, make_token_missing_error/1). */
export interface MfaError {
  mechanism: 'totp';
  error: 'missing_mfa_token' | 'bad_mfa_token';
  /** Only while the user has never entered a code: the secret to set up an authenticator with. */
  secret?: string;
}

/** What a sign-in attempt came to (emqx_dashboard_admin.erl sign_token/3). */
export type SignIn =
  | { ok: true; passwordExpireIn?: number }
  | { ok: false; reason: 'password' }
  | { ok: false; reason: 'mfa'; mfa: MfaError };

/** Who asks to change someone's MFA: the caller's record, for emqx_dashboard_api.erl authorize_mfa_change/3. */
export interface MfaCaller {
  username: string;
  role: DashboardRole;
}

function mfaOf(state: MfaState | undefined): User['mfa'] {
  if (state === undefined) return 'none';
  return state === 'disabled' ? 'disabled' : 'totp';
}

function view(record: UserRecord): User {
  return {
    username: record.username, role: record.role ?? 'administrator', description: record.description, backend: 'local',
    mfa: mfaOf(record.mfa_state), scopes: record.scopes ?? 'unset',
  };
}

/** Seconds of a `duration_s` value (a number is seconds already); 0 when absent or malformed. */
function seconds(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : 0;
  const ms = parseDuration(value);
  return ms === null ? 0 : Math.floor(ms / 1000);
}

export class Users {
  constructor(
    private readonly ctx: StoreContext,
    private readonly tokens: Tokens,
    /** The `dashboard` config root (default_mfa, password_expired_time from 5.9). */
    private readonly dashboardConfig: () => Record<string, unknown> = () => ({}),
  ) {}

  private find(username: string): UserRecord | undefined {
    return this.ctx.state.users.find((u) => u.username === username);
  }

  private nowSeconds(): number {
    return Math.floor(this.ctx.clock.now() / 1000);
  }

  /**
   * Creates admin/public when no such user exists. The default password bypasses the password
   * rule, as in EMQX; the console prompts the operator to change it.
   */
  async ensureDefault(): Promise<boolean> {
    if (this.find(DEFAULT_USERNAME)) return false;
    const record: UserRecord = {
      username: DEFAULT_USERNAME,
      description: 'administrator',
      password_hash: await hashPassword(DEFAULT_PASSWORD),
      created_at: this.ctx.clock.now(),
    };
    // emqx_dashboard_admin.erl do_add_default_user/2 (e5.10.4): seeded with its role's scopes.
    if (this.ctx.profile.feature('userScopes')) record.scopes = userDefaultScopes('administrator');
    this.ctx.state.users.push(record);
    return true;
  }

  list(): User[] {
    return this.ctx.state.users.map(view);
  }

  exists(username: string): boolean {
    return this.find(username) !== undefined;
  }

  /** The user's RBAC role; unknown users have none. */
  role(username: string): DashboardRole | undefined {
    const record = this.find(username);
    return record ? record.role ?? 'administrator' : undefined;
  }

  /** emqx_dashboard_admin.erl effective_scopes_of/1: the stored scopes, or the role's when none are stored. */
  effectiveScopes(username: string): string[] {
    const record = this.find(username);
    if (!record) return [];
    return record.scopes ?? userDefaultScopes(record.role ?? 'administrator');
  }

  /** Checks credentials; an unknown user still costs one hash (security.md S1). */
  async verify(username: string, password: string): Promise<boolean> {
    const record = this.find(username);
    if (!record) {
      await spendOneHash(password);
      return false;
    }
    return verifyPassword(password, record.password_hash);
  }

  /**
   * A login's password and, from 5.9, MFA token, as emqx_dashboard_admin.erl check/3 and
   * sign_token/3 decide them: an MFA error wins over a wrong password once the user has set up
   * an authenticator, so a missing or wrong code never tells whether the password was right; the
   * setup secret is handed out only after the right password.
   */
  async signIn(username: string, password: string, mfaToken: string | undefined): Promise<SignIn> {
    const passwordOk = await this.verify(username, password);
    const record = this.find(username);
    if (!record) return { ok: false, reason: 'password' };
    if (this.ctx.profile.feature('dashboardMfa')) {
      const mfa = await this.checkMfa(record, mfaToken, passwordOk);
      // check_mfa_pwd/2: a setup prompt (the secret) only goes with the right password.
      if (mfa && !(mfa.secret !== undefined && !passwordOk)) return { ok: false, reason: 'mfa', mfa };
    }
    if (!passwordOk) return { ok: false, reason: 'password' };
    return { ok: true, passwordExpireIn: await this.passwordExpiry(record) };
  }

  /** verify_mfa_token/3: null when the token is not needed or right, else the error to answer. */
  private async checkMfa(record: UserRecord, token: string | undefined, passwordOk: boolean): Promise<MfaError | null> {
    // maybe_init_mfa_state/2: `dashboard.default_mfa` gives a user without any MFA state TOTP at
    // the first login with the right password.
    const byDefault = this.dashboardConfig().default_mfa as { mechanism?: unknown } | string | undefined;
    if (passwordOk && record.mfa_state === undefined && typeof byDefault === 'object' && byDefault?.mechanism === 'totp') {
      record.mfa_state = { mechanism: 'totp', secret: newTotpSecret() };
      await this.ctx.persist();
    }
    const state = record.mfa_state;
    if (state === undefined || state === 'disabled') return null;
    const setUp = (state.first_verify_ts ?? 0) > 0;
    // emqx_dashboard_api.erl: mfa_token is a string of at most 9 characters; an empty one is none.
    if (token === undefined || token === '') return { mechanism: 'totp', error: 'missing_mfa_token', ...(setUp ? {} : { secret: state.secret }) };
    if (!verifyTotp(state.secret, token, this.ctx.clock.now())) return { mechanism: 'totp', error: 'bad_mfa_token' };
    // The first right code completes the setup, counted only with the right password.
    if (!setUp && passwordOk) {
      state.first_verify_ts = this.nowSeconds();
      await this.ctx.persist();
    }
    return null;
  }

  /**
   * verify_password_expiration/2: with `dashboard.password_expired_time` set, the seconds left
   * (negative once past; the login still succeeds); the clock starts at the first login that
   * finds none recorded.
   */
  private async passwordExpiry(record: UserRecord): Promise<number | undefined> {
    if (!this.ctx.profile.feature('passwordExpiry')) return undefined;
    const validity = seconds(this.dashboardConfig().password_expired_time);
    if (validity === 0) return undefined;
    if (record.password_ts === undefined) {
      record.password_ts = this.nowSeconds();
      await this.ctx.persist();
      return validity;
    }
    return record.password_ts + validity - this.nowSeconds();
  }

  async create(username: string, password: string, description: string, role: DashboardRole = 'administrator', scopes?: string[]): Promise<User> {
    if (this.find(username)) throw apiError(400, 'BAD_REQUEST', 'username_already_exists');
    // emqx_dashboard_api.erl users(post): the role's scopes when none are given; checked first.
    const withScopes = this.ctx.profile.feature('userScopes');
    const given = withScopes ? scopes ?? userDefaultScopes(role) : undefined;
    const problem = given && userScopesProblem(role, given);
    if (problem) throw apiError(400, 'BAD_REQUEST', problem);
    const rule = passwordRuleError(password);
    if (rule) throw apiError(400, 'BAD_REQUEST', rule);
    const password_hash = await hashPassword(password);
    // Checked again: another request may have created the same user while this one hashed.
    if (this.find(username)) throw apiError(400, 'BAD_REQUEST', 'username_already_exists');
    const record: UserRecord = { username, description, password_hash, created_at: this.ctx.clock.now(), role };
    if (given) record.scopes = given;
    this.ctx.state.users.push(record);
    await this.ctx.persist();
    return view(record);
  }

  /** emqx_dashboard_api.erl user/2 put: an omitted role is the default one, administrator. */
  async update(username: string, description: string, role: DashboardRole = 'administrator', scopes?: string[]): Promise<User> {
    const withScopes = this.ctx.profile.feature('userScopes');
    // is_default_admin_modification/3 (5.9 on): the break-glass account keeps its role and scopes.
    if (withScopes && username === DEFAULT_USERNAME) {
      if (role !== 'administrator') throw apiError(400, 'NOT_ALLOWED', 'The default administrator role cannot be changed.');
      if (scopes !== undefined) throw apiError(400, 'NOT_ALLOWED', 'The default administrator cannot have an explicit scope list; it always holds the full catalog.');
    }
    const record = this.find(username);
    // update_user/4 checks the scopes the user will have (given, or kept) against the new role.
    const effective = scopes ?? record?.scopes;
    const problem = withScopes && effective ? userScopesProblem(role, effective) : null;
    if (problem) throw apiError(400, 'BAD_REQUEST', problem);
    if (!record) throw apiError(404, 'USER_NOT_FOUND', 'username_not_found');
    record.description = description;
    // Without RBAC (Community) the field cannot be given: a role stored by Enterprise stays, so a
    // change of edition never raises it (security.md S28).
    if (this.ctx.profile.hasApp('emqx_dashboard_rbac')) record.role = role;
    if (withScopes && scopes !== undefined) record.scopes = scopes;
    await this.ctx.persist();
    return view(record);
  }

  /** Deletes a user and its sessions; the default user and the caller cannot be deleted. */
  async remove(username: string, actor: string | null): Promise<void> {
    if (username === DEFAULT_USERNAME) {
      // emqx_dashboard_api.erl user(delete) at e5.10.4 says it in a sentence; before 5.9 the
      // admin module printed the binary in Erlang syntax.
      const message = this.ctx.profile.feature('userScopes') ? 'The default administrator user cannot be deleted.' : `Cannot delete user <<"${username}">>`;
      throw apiError(400, 'NOT_ALLOWED', message);
    }
    if (username === actor) throw apiError(400, 'NOT_ALLOWED', 'Cannot delete self');
    const index = this.ctx.state.users.findIndex((u) => u.username === username);
    // emqx_dashboard_admin.erl remove_user/1: the transaction aborts with <<"username_not_found">>.
    if (index < 0) throw apiError(404, 'USER_NOT_FOUND', 'username_not_found');
    this.ctx.state.users.splice(index, 1);
    this.tokens.revokeUser(username);
    await this.ctx.persist();
  }

  /** Changes a password after checking the old one; revokes all the user's tokens (S5). */
  async changePassword(username: string, oldPassword: string, newPassword: string): Promise<void> {
    const record = this.find(username);
    if (!record) throw apiError(404, 'USER_NOT_FOUND', 'User not found');
    if (!(await verifyPassword(oldPassword, record.password_hash))) {
      throw apiError(400, 'ERROR_PWD_NOT_MATCH', 'Old password not match');
    }
    if (oldPassword === newPassword) {
      throw apiError(400, 'BAD_REQUEST', 'The new and old passwords cannot be the same');
    }
    const rule = passwordRuleError(newPassword);
    if (rule) throw apiError(400, 'BAD_REQUEST', rule);
    record.password_hash = await hashPassword(newPassword);
    // change_password_hash/2: the password's age starts again.
    if (this.ctx.profile.feature('passwordExpiry')) record.password_ts = this.nowSeconds();
    this.tokens.revokeUser(username);
    await this.ctx.persist();
  }

  /**
   * emqx_dashboard_api.erl authorize_mfa_change/3: whether `caller` may set up (`setup`) or turn
   * off (`disable`) the MFA of `target`; throws the 403 the broker answers otherwise.
   */
  authorizeMfaChange(caller: MfaCaller, target: string, op: 'setup' | 'disable'): void {
    const record = this.find(target);
    const firstSetup = op === 'setup' && record?.mfa_state === undefined;
    if (firstSetup) return;
    const self = caller.username === target;
    const hasMgmt = this.effectiveScopes(caller.username).includes('mfa_management');
    const locked = record?.admin_override === 'mfa_required';
    if (self && (hasMgmt || !locked)) return;
    if (self) throw apiError(403, 'MFA_LOCKED', 'MFA changes for this account are restricted; the mfa_management scope is required to override.');
    if (hasMgmt && caller.role === 'administrator') return;
    if (hasMgmt) throw apiError(403, 'MFA_SELF_ONLY', 'Non-administrator users with mfa_management scope can only manage their own MFA, not other users\'.');
    throw apiError(403, 'MFA_MGMT_REQUIRED', 'The mfa_management scope is required to manage other users\' MFA.');
  }

  /**
   * reinit_mfa/3: a new TOTP secret to set up at the next login, every token of the user ended;
   * done by another user it also makes MFA required for the target (admin_override).
   */
  async setupMfa(target: string, byOther: boolean): Promise<void> {
    const record = this.find(target);
    if (!record) throw apiError(404, 'USER_NOT_FOUND', 'User not found');
    record.mfa_state = { mechanism: 'totp', secret: newTotpSecret() };
    if (byOther) record.admin_override = 'mfa_required';
    this.tokens.revokeUser(target);
    await this.ctx.persist();
  }

  /** disable_mfa/2: MFA off; by another user it exempts the target from MFA policy. */
  async disableMfa(target: string, byOther: boolean): Promise<void> {
    const record = this.find(target);
    if (!record) throw apiError(404, 'USER_NOT_FOUND', 'User not found');
    if (record.mfa_state === 'disabled') throw apiError(400, 'BAD_REQUEST', 'MFA is already disabled');
    record.mfa_state = 'disabled';
    if (byOther) record.admin_override = 'mfa_exempted';
    await this.ctx.persist();
  }
}
