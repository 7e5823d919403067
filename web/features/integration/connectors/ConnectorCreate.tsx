/**
 * /connector/create: the type picker (every type of spec part2 §3, searchable), then the type's
 * schema form. `?from=<id>` duplicates a connector under the first free `_duplication` name.
 */
import { useState } from 'react';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { useQuery } from '../../../lib/query.ts';
import { useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { apiPath, connectorTypes, duplicateName, typeLabel, type Bridge } from './bridge.ts';
import { BridgeForm } from './BridgeForm.tsx';
import { TypeBadge } from './BridgeCells.tsx';
import { connectorLink } from './ConnectorsPage.tsx';
import './messages.ts';

/** Where a new connector of a type starts beyond its schema defaults (the console's own choices). */
const STARTS: Record<string, Partial<Bridge>> = {
  http: { url: 'http://', headers: { 'content-type': 'application/json' } },
};

export function TypePicker({ types, onPick }: { types: string[]; onPick: (type: string) => void }) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const shown = types.filter((type) => `${type} ${typeLabel(type)}`.toLowerCase().includes(search.trim().toLowerCase()));
  return (
    <div class="type-picker" data-test="type-picker">
      <input type="search" value={search} placeholder={t('connectors.searchType')} aria-label={t('connectors.searchType')}
        data-test="type-search" onInput={(e) => setSearch(e.currentTarget.value)} />
      {shown.length === 0 ? <Empty text={t('connectors.noType')} /> : (
        <div class="type-grid" role="listbox" aria-label={t('connectors.chooseType')}>
          {shown.map((type) => (
            <button type="button" key={type} role="option" aria-selected={chosen === type} data-test={`type-${type}`}
              class={chosen === type ? 'type-card chosen' : 'type-card secondary outline'} onClick={() => setChosen(type)} onDblClick={() => onPick(type)}>
              <TypeBadge type={type} />
            </button>
          ))}
        </div>
      )}
      <button type="button" disabled={!chosen} data-test="type-next" onClick={() => onPick(chosen)}>{t('connectors.next')}</button>
    </div>
  );
}

export default function ConnectorCreate() {
  const [query, setQuery] = useQuery();
  const from = query.from;
  const copy = useRemote('connectors', async (signal) => {
    if (!from) return undefined;
    const [original, all] = await Promise.all([
      api.get<Bridge>(apiPath('connectors', from), { signal }),
      api.get<Bridge[]>('/connectors', { signal }),
    ]);
    return { ...original, name: duplicateName(original.name, all.map((c) => c.name)) };
  }, from ?? '');
  const type = copy.data?.type ?? query.type;
  return (
    <section class="bridge-page" data-test="connector-create">
      <header class="page-head">
        <h2>{t('integration.connectorCreate')}{type ? ` · ${typeLabel(type)}` : ''}</h2>
        {type && !from && <button type="button" class="secondary outline" data-test="type-change" onClick={() => setQuery({ type: undefined })}>{t('connectors.changeType')}</button>}
      </header>
      {from && copy.error ? <Failed error={copy.error} retry={copy.reload} />
        : from && !copy.data ? <Loading />
          : !type ? <TypePicker types={connectorTypes()} onPick={(picked) => setQuery({ type: picked })} />
            : (
              <>
                <p class="muted">{t('connectors.chooseType')}: <TypeBadge type={type} /></p>
                <BridgeForm key={type} kind="connectors" type={type} create value={copy.data ?? STARTS[type] ?? {}}
                  onSaved={(saved) => (toast(t('connectors.created')), void navigate(connectorLink(saved ?? { type, name: '' }), { force: true }))} />
              </>
            )}
    </section>
  );
}
