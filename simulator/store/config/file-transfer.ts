// File transfer settings (Enterprise, emqx_ft_schema.erl, served by emqx_ft_api.erl through
// emqx_mgmt_api_configs request_config/3): the `file_transfer` root with its 5.5.1 defaults,
// replaced as a whole by PUT and persisted. The simulator stores no transferred files.
import { ConfigError, deepMerge, obfuscate, restoreSecrets, validateStruct } from './config-roots.ts';
import type { StoreContext } from '../context.ts';
import { apiError } from '../../plugins/errors.ts';

type Obj = Record<string, unknown>;

// emqx_ft_schema.erl defaults (v5.5.1): timeouts, and local storage with segment GC and the local
// exporter, as GET /file_transfer returns them with defaults filled.
const DEFAULTS: Obj = {
  enable: false,
  init_timeout: '10s',
  store_segment_timeout: '5m',
  assemble_timeout: '5m',
  storage: {
    local: {
      segments: { gc: { interval: '1h', maximum_segments_ttl: '24h', minimum_segments_ttl: '5m' } },
      exporter: { local: { enable: true } },
      enable: true,
    },
  },
};

export class FileTransfer {
  constructor(private readonly ctx: StoreContext) {}

  private raw(): Obj {
    return deepMerge(structuredClone(DEFAULTS), this.ctx.state.file_transfer ?? {}) as Obj;
  }

  /** GET /file_transfer (secrets such as an S3 key as `******`). */
  get(): Obj {
    return obfuscate(this.raw()) as Obj;
  }

  /** PUT /file_transfer: the body replaces the root (omitted keys take their defaults). */
  async put(body: Obj): Promise<Obj> {
    const config = restoreSecrets(body, this.raw()) as Obj;
    try {
      validateStruct('file_transfer', 'file_transfer', config, '');
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw apiError(400, 'UPDATE_FAILED', JSON.stringify({ kind: 'validation_error', path: err.path, reason: err.reason }));
    }
    this.ctx.state.file_transfer = config;
    await this.ctx.persist();
    return this.get();
  }
}
