// Builds EMQX plugin packages in memory for tests: `<name>-<vsn>.tar.gz` holding
// `<name>-<vsn>/release.json` and README.md (optionally a config and its Avro schema), plus
// broken variants (no release.json, truncated archive, not gzip at all).
import { targz, type TarEntry } from '../../simulator/lib/tar.ts';

export interface PluginPackageOptions {
  name?: string;
  version?: string;
  description?: string;
  authors?: string[];
  readme?: string;
  /** Default plugin config (`config.json`), enabling GET/PUT /plugins/{id}/config. */
  config?: Record<string, unknown>;
  /** Avro schema (`config_schema.avsc`), enabling GET /plugins/{id}/schema. */
  avsc?: Record<string, unknown>;
  /** Extra release.json fields. */
  release?: Record<string, unknown>;
}

/** The package's file name, e.g. `my_plugin-1.0.0.tar.gz`. */
export function pluginFileName({ name = 'my_plugin', version = '1.0.0' }: PluginPackageOptions = {}): string {
  return `${name}-${version}.tar.gz`;
}

/** A valid plugin package. */
export function pluginPackage(options: PluginPackageOptions = {}): Promise<Buffer> {
  const { name = 'my_plugin', version = '1.0.0' } = options;
  const dir = `${name}-${version}`;
  const release = {
    name,
    rel_vsn: version,
    rel_apps: [`${name}-${version}`],
    description: options.description ?? `The ${name} plugin for tests.`,
    authors: options.authors ?? ['EMQX Team'],
    builder: { name: 'tester', contact: 'tester@example.com', website: 'https://www.example.com' },
    repo: 'https://github.com/emqx/emqx-plugin-template',
    functionality: ['Demo'],
    compatibility: { emqx: '~> 5.0' },
    git_ref: 'unknown',
    git_commit_or_build_date: '2024-01-01',
    metadata_vsn: '0.1.0',
    built_on_otp_release: '26',
    ...options.release,
  };
  const entries: TarEntry[] = [
    { name: dir, data: Buffer.alloc(0), type: 'directory' },
    { name: `${dir}/release.json`, data: Buffer.from(JSON.stringify(release, null, 2)) },
    { name: `${dir}/README.md`, data: Buffer.from(options.readme ?? `# ${name}\n\nA plugin package built for tests.\n`) },
    { name: `${dir}/${name}-${version}/ebin/${name}.app`, data: Buffer.from(`{application, ${name}, []}.\n`) },
  ];
  if (options.config) entries.push({ name: `${dir}/config.json`, data: Buffer.from(JSON.stringify(options.config)) });
  if (options.avsc) entries.push({ name: `${dir}/config_schema.avsc`, data: Buffer.from(JSON.stringify(options.avsc)) });
  return targz(entries);
}

/** A broken package: `missing-release` (no release.json), `truncated` (cut short) or `not-gzip`. */
export async function brokenPluginPackage(kind: 'missing-release' | 'truncated' | 'not-gzip' = 'missing-release', options: PluginPackageOptions = {}): Promise<Buffer> {
  const { name = 'my_plugin', version = '1.0.0' } = options;
  if (kind === 'missing-release') {
    return targz([{ name: `${name}-${version}/README.md`, data: Buffer.from('# no release.json here\n') }]);
  }
  if (kind === 'truncated') {
    const whole = await pluginPackage(options);
    return whole.subarray(0, Math.floor(whole.length / 2));
  }
  return Buffer.from('this is not a gzip archive');
}
