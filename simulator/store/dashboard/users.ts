// Dashboard users (emqx_dashboard_admin): create, describe, delete, change password, verify a
// login. Errors carry the EMQX codes and messages of emqx-api-part1 §3.
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { hashPassword, passwordRuleError, spendOneHash, verifyPassword } from './passwords.ts';
import type { DashboardRole, UserRecord } from '../state.ts';
import type { Tokens } from './tokens.ts';

/** The default user EMQX creates at first boot (`dashboard.default_username`). */
export const DEFAULT_USERNAME = 'admin';
const DEFAULT_PASSWORD = 'public';

/** As emqx_dashboard_api.erl shows a user; `role` and `backend` exist only with RBAC (Enterprise). */
export interface User {
  username: string;
  role: DashboardRole;
  description: string;
  backend: 'local';
}

function view(record: UserRecord): User {
  return { username: record.username, role: record.role ?? 'administrator', description: record.description, backend: 'local' };
}

export class Users {
  constructor(
    private readonly ctx: StoreContext,
    private readonly tokens: Tokens,
  ) {}

  private find(username: string): UserRecord | undefined {
    return this.ctx.state.users.find((u) => u.username === username);
  }

  /**
   * Creates admin/public when no such user exists. The default password bypasses the password
   * rule, as in EMQX; the console prompts the operator to change it.
   */
  async ensureDefault(): Promise<boolean> {
    if (this.find(DEFAULT_USERNAME)) return false;
    this.ctx.state.users.push({
      username: DEFAULT_USERNAME,
      description: 'administrator',
      password_hash: await hashPassword(DEFAULT_PASSWORD),
      created_at: this.ctx.clock.now(),
    });
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

  /** Checks credentials; an unknown user still costs one hash (security.md S1). */
  async verify(username: string, password: string): Promise<boolean> {
    const record = this.find(username);
    if (!record) {
      await spendOneHash(password);
      return false;
    }
    return verifyPassword(password, record.password_hash);
  }

  async create(username: string, password: string, description: string, role: DashboardRole = 'administrator'): Promise<User> {
    if (this.find(username)) throw apiError(400, 'BAD_REQUEST', 'username_already_exists');
    const rule = passwordRuleError(password);
    if (rule) throw apiError(400, 'BAD_REQUEST', rule);
    const password_hash = await hashPassword(password);
    // Checked again: another request may have created the same user while this one hashed.
    if (this.find(username)) throw apiError(400, 'BAD_REQUEST', 'username_already_exists');
    const record: UserRecord = { username, description, password_hash, created_at: this.ctx.clock.now(), role };
    this.ctx.state.users.push(record);
    await this.ctx.persist();
    return view(record);
  }

  /** emqx_dashboard_api.erl user/2 put: an omitted role is the default one, administrator. */
  async update(username: string, description: string, role: DashboardRole = 'administrator'): Promise<User> {
    const record = this.find(username);
    if (!record) throw apiError(404, 'USER_NOT_FOUND', 'username_not_found');
    record.description = description;
    // Without RBAC (Community) the field cannot be given: a role stored by Enterprise stays, so a
    // change of edition never raises it (security.md S28).
    if (this.ctx.profile.hasApp('emqx_dashboard_rbac')) record.role = role;
    await this.ctx.persist();
    return view(record);
  }

  /** Deletes a user and its sessions; the default user and the caller cannot be deleted. */
  async remove(username: string, actor: string | null): Promise<void> {
    // EMQX prints the binary in Erlang syntax: Cannot delete user <<"admin">>
    if (username === DEFAULT_USERNAME) throw apiError(400, 'NOT_ALLOWED', `Cannot delete user <<"${username}">>`);
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
    this.tokens.revokeUser(username);
    await this.ctx.persist();
  }
}
