/** How a plugin's state is shown: active or inactive overall, and the run state on each node. */
import { t } from '../../../lib/i18n.ts';
import { isActive, type Plugin } from './plugins.tsx';
import './messages.ts';

export function PluginStatus({ plugin }: { plugin: Plugin }) {
  const active = isActive(plugin);
  return <span class={`tag ${active ? 'tag-ok' : 'tag-off'}`} data-test="plugin-status">{t(active ? 'plugins.active' : 'plugins.inactive')}</span>;
}

/** `node: Running` per node; a node that does not report the plugin shows it as unloaded. */
export function RunStates({ plugin }: { plugin: Plugin }) {
  const states = plugin.running_status ?? [];
  if (states.length === 0) return <span class="muted">{t('plugins.unloaded')}</span>;
  return (
    <span class="run-states">
      {states.map((s) => (
        <span key={s.node} class="nowrap" data-test="plugin-run-state">
          {s.node}: {t(`plugins.${s.status === 'running' ? 'running' : s.status === 'stopped' ? 'stopped' : 'unloaded'}`)}
        </span>
      ))}
    </span>
  );
}
