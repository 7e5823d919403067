/**
 * Tabs as links or buttons: `tabs` lists keys and i18n titles; the caller owns the active key
 * (usually in the route or the query string) so a reload keeps the tab.
 */
import { t } from '../lib/i18n.ts';

export function Tabs(props: { tabs: { key: string; title: string }[]; active: string; onChange: (key: string) => void }) {
  return (
    <nav class="tabs" role="tablist">
      {props.tabs.map((tab) => (
        <button type="button" role="tab" key={tab.key} aria-selected={tab.key === props.active}
          class={tab.key === props.active ? 'tab active' : 'tab'} data-test={`tab-${tab.key}`}
          onClick={() => props.onChange(tab.key)}>
          {t(tab.title)}
        </button>
      ))}
    </nav>
  );
}
