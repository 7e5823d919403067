/**
 * Management > Plugins as one declaration (emqx-api-part1 §21): `GET /plugins` (bare list in boot
 * order), start and stop (`PUT /plugins/{name-vsn}/start|stop`), moves (`POST .../move` with
 * `front`, `rear`, `before:<id>`, `after:<id>`) and uninstall (`DELETE /plugins/{name-vsn}`).
 */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import type { Rule } from '../../../lib/validators.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { PluginStatus, RunStates } from './PluginCells.tsx';
import './messages.ts';

export interface Plugin {
  name: string;
  rel_vsn: string;
  description?: string;
  author?: string[];
  /** What release.json itself calls the authors (EMQX answers `author`; some versions pass both). */
  authors?: string[];
  builder?: { name?: string; contact?: string; website?: string };
  repo?: string;
  functionality?: string[];
  compatibility?: Record<string, string>;
  git_commit_or_build_date?: string;
  running_status?: { node: string; status: string }[];
  readme?: string;
}

/** The path id EMQX uses: `<name>-<rel_vsn>`. */
export const pluginId = (p: Plugin) => `${p.name}-${p.rel_vsn}`;
export const pluginPath = (id: string, rest = '') => `/plugins/${encodeURIComponent(id)}${rest}`;
/** Active while it runs on some node (spec part1 §3: active, inactive). */
export const isActive = (p: Plugin) => (p.running_status ?? []).some((s) => s.status === 'running');

let order: string[] = [];
const move = (p: Plugin, position: string) => api.post(pluginPath(pluginId(p), '/move'), { position });
const notSelf: Rule = (value, values) => (value === values.self ? t('plugins.sameTarget') : undefined);

export const plugins: ResourceDecl<Plugin> = {
  name: 'plugins',
  title: 'management.plugins',
  rowKey: pluginId,
  list: arrayList<Plugin>('/plugins', (all) => (order = all.map(pluginId))),
  empty: 'plugins.empty',
  tools: [{ key: 'install', label: 'plugins.install', href: '/plugins/install', run: async () => undefined }],
  columns: [
    { key: 'name', title: 'plugins.name', link: (p) => `/plugins/detail/${encodeURIComponent(pluginId(p))}` },
    { key: 'rel_vsn', title: 'plugins.version', text: (p) => <span class="nowrap">{p.rel_vsn}</span> },
    { key: 'author', title: 'plugins.author', text: (p) => (p.author ?? p.authors ?? []).join(', ') || '—' },
    { key: 'description', title: 'plugins.description', optional: true },
    { key: 'status', title: 'plugins.status', text: (p) => <PluginStatus plugin={p} /> },
    { key: 'running_status', title: 'plugins.runState', text: (p) => <RunStates plugin={p} />, optional: true },
  ],
  actions: [
    { key: 'start', label: 'plugins.start', when: (p) => !isActive(p), success: 'plugins.started', run: (p) => api.put(pluginPath(pluginId(p), '/start')) },
    { key: 'stop', label: 'plugins.stop', when: isActive, confirm: 'plugins.confirmStop', success: 'plugins.stoppedOk', run: (p) => api.put(pluginPath(pluginId(p), '/stop')) },
    { key: 'top', label: 'plugins.moveTop', when: (p) => order.indexOf(pluginId(p)) > 0, success: 'plugins.moved', run: (p) => move(p, 'front') },
    { key: 'bottom', label: 'plugins.moveBottom', when: (p) => order.indexOf(pluginId(p)) < order.length - 1, success: 'plugins.moved', run: (p) => move(p, 'rear') },
    {
      key: 'move', label: 'plugins.move', when: () => order.length > 1,
      form: {
        title: 'plugins.moveTitle', success: 'plugins.moved',
        fields: [
          { name: 'where', label: 'plugins.where', kind: 'select', options: [{ value: 'before', label: 'plugins.before' }, { value: 'after', label: 'plugins.after' }] },
          { name: 'target', label: 'plugins.target', kind: 'select', required: true, rules: [notSelf], loadOptions: async () => order.map((id) => ({ value: id, label: id })) },
        ],
        initial: (p) => ({ where: 'before', self: pluginId(p!), target: order.find((id) => id !== pluginId(p!)) ?? '' }),
        submit: (v, p) => move(p!, `${v.where}:${v.target}`),
      },
    },
    { key: 'uninstall', label: 'plugins.uninstall', danger: true, confirm: 'plugins.confirmUninstall', success: 'plugins.uninstalled', run: (p) => api.del(pluginPath(pluginId(p))) },
  ],
};
