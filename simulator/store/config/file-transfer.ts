// File transfer settings (Enterprise, emqx_ft_schema.erl, served by emqx_ft_api.erl and by
// emqx_mgmt_api_configs as the file_transfer root): the release's `file_transfer` tree with its
// defaults, checked as hocon checks it and replaced as a whole by PUT, persisted. The simulator
// stores no transferred files.
import { deepMerge, obfuscate, restoreSecrets, rootDefaults } from './config-roots.ts';
import type { StoreContext } from '../context.ts';
import { refuseInvalid, rootType } from './schema-check.ts';

type Obj = Record<string, unknown>;

export class FileTransfer {
  constructor(private readonly ctx: StoreContext) {}

  private raw(): Obj {
    return deepMerge(rootDefaults('file_transfer', this.ctx.profile.version), this.ctx.state.file_transfer ?? {}) as Obj;
  }

  /** GET /file_transfer (secrets such as an S3 key as `******`). */
  get(): Obj {
    return obfuscate(this.raw()) as Obj;
  }

  /** PUT /file_transfer: the body replaces the root (omitted keys take their defaults). */
  async put(body: Obj): Promise<Obj> {
    const config = restoreSecrets(body, this.raw()) as Obj;
    const type = rootType(this.ctx.profile.version, 'file_transfer');
    if (type) refuseInvalid(this.ctx.profile, type, config);
    this.ctx.state.file_transfer = config;
    await this.ctx.persist();
    return this.get();
  }
}
