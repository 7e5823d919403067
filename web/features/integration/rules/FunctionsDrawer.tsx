/**
 * The SQL function help: the broker's function library in its groups, searchable; each signature
 * can be added to the SELECT list of the rule being edited.
 */
import { useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { FUNCTION_GROUPS } from './sqlWords.ts';
import './messages.ts';

export function FunctionsDrawer({ onUse, onClose }: { onUse: (signature: string) => void; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const groups = Object.entries(FUNCTION_GROUPS)
    .map(([group, list]) => [group, list.split(' ').filter((sig) => !needle || sig.toLowerCase().includes(needle))] as const)
    .filter(([, list]) => list.length > 0);
  return (
    <Drawer title={t('rules.functions')} onClose={onClose} test="rule-functions">
      <input type="search" value={search} placeholder={t('rules.functionSearch')} aria-label={t('rules.functionSearch')}
        data-test="rule-functions-search" onInput={(e) => setSearch(e.currentTarget.value)} />
      {groups.length === 0 && <p class="muted" data-test="rule-functions-none">{t('rules.functionNone')}</p>}
      {groups.map(([group, list]) => (
        <section key={group} data-test="rule-function-group" data-key={group}>
          <h5>{t(`rules.fn.${group}`)}</h5>
          <ul class="function-list">
            {list.map((sig) => (
              <li key={sig}>
                <code>{sig}</code>
                <button type="button" class="outline secondary" data-test="rule-function-use" data-key={sig}
                  aria-label={`${t('rules.functionInsert')}: ${sig}`} onClick={() => (onUse(sig), onClose())}>
                  {t('rules.functionInsert')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Drawer>
  );
}
