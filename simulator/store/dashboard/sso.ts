// Dashboard single sign-on backends (Enterprise, emqx_dashboard_sso_api.erl and
// emqx_dashboard_sso_manager.erl): the configured backends, persisted as EMQX keeps them under
// `dashboard.sso`. The simulator speaks no LDAP, SAML or OIDC, so no backend ever runs: an enabled
// backend is stored and reported with the start error, as EMQX stores a backend it could not start.
import { apiError } from '../../plugins/errors.ts';
import { ConfigError, restoreSecrets, validateStruct } from '../config/config-roots.ts';
import type { StoreContext } from '../context.ts';

type Obj = Record<string, unknown>;

/** Every backend type EMQX 5.8.9 knows; the profile's VALUES table limits them per release. */
export const SSO_BACKENDS = ['ldap', 'saml', 'oidc'] as const;
export type SsoBackend = (typeof SSO_BACKENDS)[number];

/** What the manager records when a backend could not start (its `last_error`). */
export const NOT_RUNNING = 'Resource not valid, status: disconnected';

// Fields each backend must have (emqx_ldap.erl `base_dn`/`server`/`username`, the oidc schema's
// issuer/clientid/secret); SAML has defaults for everything.
const REQUIRED: Record<SsoBackend, readonly string[]> = {
  ldap: ['server', 'username', 'base_dn'],
  saml: [],
  oidc: ['issuer', 'clientid', 'secret'],
};

// The keys EMQX's redaction hides in GET answers (emqx_utils_redact.erl).
const SECRET_KEYS = new Set(['password', 'bind_password', 'secret', 'sp_private_key']);

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) out[k] = SECRET_KEYS.has(k) && typeof v === 'string' ? '******' : redact(v);
  return out;
}

export interface BackendStatus {
  backend: string;
  enable: boolean;
  running: boolean;
  last_error: string;
}

export class Sso {
  constructor(private readonly ctx: StoreContext) {}

  private saved(): Record<string, Obj> {
    return this.ctx.state.sso ?? {};
  }

  /** GET /sso: every configured backend with its status. */
  list(): BackendStatus[] {
    return Object.values(this.saved()).map((conf) => {
      const enable = conf.enable === true;
      // get_backend_status/2: a disabled backend has no error; an enabled one did not start.
      return { backend: String(conf.backend), enable, running: false, last_error: enable ? NOT_RUNNING : '' };
    });
  }

  /** GET /sso/running: backends that are enabled and started; none can start here. */
  running(): string[] {
    return [];
  }

  has(backend: string): boolean {
    return Object.hasOwn(this.saved(), backend);
  }

  /** GET /sso/{backend}: the redacted config, or 404 BACKEND_NOT_FOUND. */
  get(backend: string): Obj {
    const conf = this.saved()[backend];
    if (!conf) throw notFound();
    return redact(conf) as Obj;
  }

  /**
   * PUT /sso/{backend}: validates and stores the config. A disabled backend answers its config; an
   * enabled one is stored too but answers 400 with the start error, as emqx_dashboard_sso_api.erl
   * `handle_backend_update_result/2` does when the backend's resource cannot start.
   */
  async put(backend: SsoBackend, body: Obj): Promise<Obj> {
    // valid_config/3: the body must name the backend of the path.
    if (body.backend !== backend) throw apiError(400, 'BAD_REQUEST', 'Reason: invalid_config');
    const config = restoreSecrets(body, this.saved()[backend]) as Obj;
    for (const field of REQUIRED[backend]) {
      if (config[field] === undefined || config[field] === '') {
        throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: `${backend}.${field}`, reason: 'required_field' }));
      }
    }
    if (backend !== 'oidc') {
      try {
        validateStruct('dashboard', backend, config, backend);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: err.path, reason: err.reason }));
      }
    }
    const stored = { enable: false, ...config };
    this.ctx.state.sso = { ...this.saved(), [backend]: stored };
    await this.ctx.persist();
    if (stored.enable === true) throw apiError(400, 'BAD_REQUEST', `Reason: ${NOT_RUNNING}`);
    return redact(stored) as Obj;
  }

  /** DELETE /sso/{backend}. */
  async remove(backend: string): Promise<void> {
    if (!this.has(backend)) throw notFound();
    const next = { ...this.saved() };
    delete next[backend];
    this.ctx.state.sso = next;
    await this.ctx.persist();
  }
}

export function notFound(): Error {
  return apiError(404, 'BACKEND_NOT_FOUND', 'Backend not found');
}
