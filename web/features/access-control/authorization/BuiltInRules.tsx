/**
 * Built-in database rules (api part2 §3.1): per client ID and per username as declared lists
 * (paged on the server, fuzzy `like_clientid`/`like_username`), each subject's rules edited in a
 * drawer; and the one rule list for all clients.
 */
import { useMemo } from 'react';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { RulesEditor, newRule, type AclRule } from './RulesEditor.tsx';
import './messages.ts';

const BASE = '/authorization/sources/built_in_database/rules';
type Subject = Record<string, unknown> & { rules: AclRule[] };

export function declareSubjects(who: 'clients' | 'users'): ResourceDecl<Subject> {
  const key = who === 'clients' ? 'clientid' : 'username';
  const name = `authz-${who}`;
  const save = (subject: string, rules: AclRule[]) =>
    api.put(`${BASE}/${who}/${encodeURIComponent(subject)}`, { [key]: subject, rules }).then(() => (toast(t('authz.rulesSaved')), touch(name)));
  return {
    name,
    title: `authz.${who}`,
    rowKey: (row) => String(row[key]),
    list: pageList<Subject>(`${BASE}/${who}`),
    empty: 'authz.noRules',
    filters: [{ name: `like_${key}`, label: `authz.${key}` }],
    columns: [
      { key, title: `authz.${key}` },
      { key: 'rules', title: 'authz.rules', text: (row) => row.rules.map((r) => `${t(`authz.perm.${r.permission}`)} ${t(`authz.act.${r.action}`)} ${r.topic}`).join('; ') },
    ],
    createLabel: 'authz.addRule',
    // Several rules of a new client or user at once, as rows (EMQX's dialog takes several too).
    createView: {
      title: 'authz.addRule',
      render: (close) => (
        <RulesEditor rules={[newRule()]} subject={`authz.${key}`} test={`${name}-new-rules`}
          onSave={async (rules, subject) => {
            await api.post(`${BASE}/${who}`, [{ [key]: subject, rules }]);
            toast(t('authz.rulesSaved'));
            touch(name);
            close();
          }} />
      ),
    },
    actions: [
      { key: 'rules', label: 'common.edit', view: { title: 'authz.editRules', render: (row) => <RulesEditor rules={row.rules} onSave={(rules) => save(String(row[key]), rules)} /> } },
      { key: 'delete', label: 'common.delete', danger: true, confirm: 'authz.confirmDeleteRules', success: 'authz.rulesDeleted', run: (row) => api.del(`${BASE}/${who}/${encodeURIComponent(String(row[key]))}`) },
    ],
  };
}

function AllRules() {
  const remote = useRemote('authz-all', (signal) => api.get<{ rules: AclRule[] }>(`${BASE}/all`, { signal }));
  if (!remote.data) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  const save = async (rules: AclRule[]) => {
    await api.post(`${BASE}/all`, { rules });
    toast(t('authz.rulesSaved'));
    touch('authz-all');
  };
  return <RulesEditor key={JSON.stringify(remote.data)} rules={remote.data.rules} onSave={save} test="authz-all-rules" />;
}

export function BuiltInRules({ who }: { who: 'clients' | 'users' | 'all' }) {
  const decl = useMemo(() => (who === 'all' ? null : declareSubjects(who)), [who]);
  return decl ? <ResourcePage key={who} decl={decl} title={false} /> : <AllRules />;
}
