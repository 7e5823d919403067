/**
 * The Schema Registry screen: schemas and external registries under two tabs (tab in the URL);
 * the external registries tab only on brokers that have them (`externalSchemaRegistry`, 5.8).
 */
import { has } from '../../../lib/broker.ts';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { externals, schemas } from './schemaRegistry.tsx';

export default function SchemaRegistryPage() {
  const [query, setQuery] = useQuery();
  const external = has('externalSchemaRegistry');
  const tab = query.tab === 'external' && external ? 'external' : 'schemas';
  return (
    <section data-test="schema-registry-page">
      <header class="page-head"><h2>{t('management.schemaRegistry')}</h2></header>
      {external && (
        <Tabs tabs={[{ key: 'schemas', title: 'schemaRegistry.schemas' }, { key: 'external', title: 'schemaRegistry.external' }]}
          active={tab} onChange={(key) => setQuery({ tab: key === 'schemas' ? undefined : key })} />
      )}
      {tab === 'schemas' ? <ResourcePage decl={schemas} title={false} /> : <ResourcePage decl={externals} title={false} />}
    </section>
  );
}
