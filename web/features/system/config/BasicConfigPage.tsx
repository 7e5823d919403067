/**
 * Basic Config: the zone (force shutdown, force GC) and dashboard tabs are config page
 * declarations (pages.ts); the configuration file tab shows the broker's whole configuration as
 * HOCON (GET /configs, emqx-api-part1 §22.2), one root or all, to download, edit and save with
 * PUT /configs?mode=merge, and resets a root to its defaults with POST /configs_reset/{root}.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { handleError } from '../../../lib/errors.ts';
import { saveBlob } from '../../../lib/download.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate, useUnsavedGuard } from '../../../lib/navigation.ts';
import { useQuery } from '../../../lib/query.ts';
import { perform, touch, useRemote } from '../../../lib/resources.ts';
import type { Token } from '../../../lib/sqlTokens.ts';
import { toast } from '../../../lib/toasts.ts';
import { CodeEditor } from '../../../ui/CodeEditor.tsx';
import { ConfigPage } from '../../../ui/ConfigPage.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { basicConfigPages, basicConfigTabs } from './pages.ts';
import './messages.ts';

type Tab = 'zone' | 'dashboard' | 'file';
const TABS: Tab[] = ['zone', 'dashboard', 'file'];

// HOCON for highlighting only: comments, strings, numbers, true/false/null, punctuation.
const HOCON_PATTERNS: [Token['type'], RegExp][] = [
  ['comment', /(?:#|\/\/)[^\n]*/y],
  ['string', /"""[\s\S]*?(?:"""|$)|"(?:[^"\\\n]|\\.)*(?:"|$)/y],
  ['number', /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.%/])/y],
  ['keyword', /(?:true|false|null)(?![\w.])/y],
  ['operator', /[{}[\]=:,]/y],
  ['text', /[^\s"#/{}[\]=:,]+|\s+|\//y],
];

/** Tokens of HOCON text; they always join back to the input. */
export function hoconTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    let next: Token = { type: 'text', text: text[pos] };
    for (const [type, re] of HOCON_PATTERNS) {
      re.lastIndex = pos;
      const m = re.exec(text);
      if (m && m[0].length > 0) {
        next = { type, text: m[0] };
        break;
      }
    }
    tokens.push(next);
    pos += next.text.length;
  }
  return tokens;
}

/** What the broker says about a refused file: `{errors: {root: {path, reason} | {line, column, reason}}}`. */
interface Problem {
  lines: string[];
  line?: number;
}

function problemOf(error: ApiError): Problem {
  const errors = (error.body as { errors?: Record<string, { path?: string; reason?: string; line?: number; column?: number }> } | undefined)?.errors;
  if (!errors || typeof errors !== 'object') return { lines: [error.message || `${error.status} ${error.code}`] };
  let line: number | undefined;
  const lines = Object.entries(errors).map(([root, e]) => {
    if (typeof e?.line === 'number') {
      line = e.line;
      return `${t('config.atPlace', { line: e.line, column: e.column ?? 1 })}: ${e.reason ?? ''}`;
    }
    return `${e?.path ?? root}: ${e?.reason ?? ''}`;
  });
  return { lines, line };
}

/** Saves text as a file. */
const saveAs = (text: string, name: string) => saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), name);

// After the file changed, the other tabs' config sections read their endpoints again.
function touchSections() {
  for (const path of ['/configs/global_zone', '/configs/dashboard']) touch(`config:${path}`);
}

function ConfigFile({ root, setRoot }: { root: string; setRoot: (root: string) => void }) {
  // The roots the broker has: the keys of the legacy JSON form.
  const roots = useRemote('configs:roots', async (signal) => Object.keys(await api.get<Record<string, unknown>>('/configs', { signal }) ?? {}));
  const file = useRemote('configs:file', async (signal) => {
    const text = await api.get<unknown>('/configs', { signal, params: { key: root }, headers: { accept: 'text/plain' }, responseType: 'text' });
    return typeof text === 'string' ? text : text === undefined ? '' : JSON.stringify(text, null, 2);
  }, root);
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const loaded = file.data ?? '';
  useUnsavedGuard(draft !== null && draft !== loaded);
  // A syntax error's line is marked in the gutter; bring it into view.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problem?.line) box.current?.querySelector('.code-error-line')?.scrollIntoView?.({ block: 'center' });
  }, [problem]);

  const fileName = root ? `${root}.conf` : 'emqx.conf';
  const edit = () => {
    setProblem(null);
    setDraft(loaded);
  };
  const cancel = () => {
    setProblem(null);
    setDraft(null);
  };
  const save = async () => {
    if (draft === null) return;
    if (!(await confirm(t('config.confirmReplace'), { danger: true }))) return;
    setBusy(true);
    try {
      await api.put('/configs', draft, { params: { mode: 'merge' }, headers: { 'content-type': 'text/plain' } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setProblem(problemOf(error));
      else handleError(error);
      return;
    } finally {
      setBusy(false);
    }
    toast(t('config.saved'));
    setProblem(null);
    setDraft(null);
    touchSections();
    file.reload();
  };
  const reset = async () => {
    const done = await perform({
      resource: 'configs:roots',
      confirm: 'config.confirmResetRoot',
      params: { root },
      danger: true,
      success: 'config.resetDone',
      run: () => api.post(`/configs_reset/${encodeURIComponent(root)}`),
    });
    if (!done) return;
    setDraft(null);
    setProblem(null);
    touchSections();
    file.reload();
  };

  const names = roots.data ?? [];
  const choices = root && !names.includes(root) ? [...names, root] : names;
  const editing = draft !== null;
  return (
    <div class="config-file" data-test="config-file" ref={box}>
      <div class="panel-head">
        <label class="inline-field">
          <span>{t('config.fileRoot')}</span>
          <select value={root} data-test="config-file-root" onChange={(e) => {
            // The choice shows once the route changed (it may ask about unsaved edits first).
            const select = e.target as HTMLSelectElement;
            setRoot(select.value);
            select.value = root;
          }}>
            <option value="">{t('config.allRoots')}</option>
            {choices.map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </label>
        <div class="toolbar">
          <button type="button" class="secondary outline" data-test="config-file-download" disabled={!file.data}
            onClick={() => void saveAs(loaded, fileName)}>{t('config.download')}</button>
          <Writable>
            <button type="button" class="secondary outline" data-test="config-file-reset" disabled={!root || busy}
              title={root ? undefined : t('config.chooseRootToReset')} onClick={() => void reset()}>{t('config.resetRoot')}</button>
            {!editing && <button type="button" data-test="config-file-edit" disabled={file.data === undefined} onClick={edit}>{t('common.edit')}</button>}
          </Writable>
        </div>
      </div>
      <p class="muted">{t('config.fileHelp')}</p>
      {file.error && !file.data ? <Failed error={file.error} retry={file.reload} />
        : file.data === undefined ? <Loading />
        : !editing && !loaded.trim() ? <Empty text={t('config.emptyFile')} />
        : (
          <CodeEditor value={editing ? draft : loaded} onChange={(text) => setDraft(text)} readOnly={!editing} label={t('config.configFile')}
            test="config-file-editor" tokenize={hoconTokens} invalid={Boolean(problem)} errorLine={problem?.line} minLines={12} />
        )}
      {problem && (
        <div class="notice notice-danger" role="alert" data-test="config-file-error">
          <strong>{t('config.notSaved')}</strong>
          {problem.lines.map((line, i) => <div key={i}>{line}</div>)}
        </div>
      )}
      {editing && (
        <div class="form-actions">
          <button type="button" class="secondary" data-test="config-file-cancel" disabled={busy} onClick={cancel}>{t('common.cancel')}</button>
          <button type="button" data-test="config-file-save" aria-busy={busy} disabled={busy} onClick={() => void save()}>{t('common.save')}</button>
        </div>
      )}
    </div>
  );
}

export default function BasicConfigPage() {
  const [query, setQuery] = useQuery();
  const tab: Tab = TABS.includes(query.tab as Tab) ? (query.tab as Tab) : 'zone';
  if (tab !== 'file') return <ConfigPage key={tab} decl={basicConfigPages[tab]} />;
  return (
    <section class="config-page" data-test="config-page">
      <header class="page-head"><h2>{t('config.basic')}</h2></header>
      <Tabs tabs={basicConfigTabs.map((item) => ({ key: item.path, title: item.title }))} active="/basic-config?tab=file" onChange={(path) => void navigate(path)} />
      {/* A new root starts afresh (the edit of the previous one was confirmed away by the guard). */}
      <ConfigFile key={query.key ?? ''} root={query.key ?? ''} setRoot={(key) => setQuery({ key: key || undefined })} />
    </section>
  );
}
