/**
 * Integration > Flows: the rules (a flow is a rule, emqx-api-part2 §6) listed by name (the rule
 * id) with description, enable switch, creation time, a link to the designer and delete. This
 * screen does not load the designer or its canvas library.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { EnableSwitch } from '../../../ui/EnableSwitch.tsx';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { rulePath, type Rule } from '../rules/rules.tsx';
import './messages.ts';

export const flowLink = (id: string) => `/flow/${encodeURIComponent(id)}`;

export const flows: ResourceDecl<Rule> = {
  name: 'flows',
  title: 'integration.flows',
  rowKey: (r) => r.id,
  list: pageList<Rule>('/rules'),
  empty: 'flows.empty',
  tools: [{ key: 'create', label: 'common.create', href: '/flow/create', run: async () => undefined }],
  filters: [{ name: 'like_id', label: 'flows.name' }, { name: 'like_description', label: 'flows.description' }],
  columns: [
    { key: 'id', title: 'flows.name', link: (r) => flowLink(r.id) },
    { key: 'description', title: 'flows.description', text: (r) => r.description || '—' },
    {
      key: 'enable', title: 'flows.enable',
      text: (r) => (
        <EnableSwitch enabled={r.enable} resource="flows" name={r.id} label="flows.enable" test="flows-enable"
          set={(enable) => api.put(rulePath(r.id), { enable })} confirmDisable="rules.confirmDisable"
          toasts={['rules.enabledToast', 'rules.disabledToast']} />
      ),
    },
    { key: 'created_at', title: 'flows.createdAt', text: (r) => formatDateTime(r.created_at, '—') },
  ],
  actions: [
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'flows.confirmDelete', success: 'flows.deleted', run: (r) => api.del(rulePath(r.id)) },
  ],
};

export default function FlowsPage() {
  return <ResourcePage decl={flows} />;
}
