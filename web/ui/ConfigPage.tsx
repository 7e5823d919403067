/**
 * The one config page every broker setting screen is (issue #8): a heading, optional tabs, and
 * one section per config endpoint — load, edit in a `SchemaForm`, save with a toast, reset the
 * edits, server errors at the field, the unsaved-changes guard while edited. A section's help
 * (descriptions, defaults, units) is loaded with its schema, from a lazy module the page names.
 * Screens only declare.
 */
import type { ComponentChild } from 'preact';
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { confirm } from '../lib/confirm.ts';
import { t } from '../lib/i18n.ts';
import { navigate } from '../lib/navigation.ts';
import { useRemote } from '../lib/resources.ts';
import { loadSchema, type SchemaDocument, type SchemaName } from '../lib/schemas.ts';
import { toast } from '../lib/toasts.ts';
import type { FieldDecl } from './resource.ts';
import { SchemaForm, type HelpLookup } from './SchemaForm.tsx';
import type { SchemaOverrides } from './schemaFields.ts';
import { Failed, Loading, type Missing } from './States.tsx';
import { Tabs } from './Tabs.tsx';
import { has, type CapabilityName } from '../lib/broker.ts';

export interface ConfigSection {
  /** Used for `data-test` (`config-<name>`) and reloads. */
  name: string;
  /** The broker capability the section's endpoint needs; without it the section is left out. */
  requires?: CapabilityName;
  /** i18n key of the section heading (pages with several sections). */
  title?: string;
  /** The endpoint read with GET and written with PUT, e.g. `/configs/sys_topics`. */
  path: string;
  /** The sub-object edited (`/configs/global_zone` → `mqtt`); the PUT body is `{[key]: …}`. */
  key?: string;
  schema?: SchemaName;
  /** Component of the schema document, e.g. `broker.mqtt`; absent for hand-declared forms. */
  component?: string;
  overrides?: SchemaOverrides;
  fields?: FieldDecl[];
  /** i18n key of the toast after saving. */
  success?: string;
  /** Loads the help of the section's fields (e.g. `() => import('./help.ts').then((m) => m.helpOf('mqtt'))`). */
  help?: () => Promise<HelpLookup>;
  /** Shown under the form (e.g. a help generator). */
  after?: () => ComponentChild;
  /** i18n key of a question asked before saving (e.g. 'updating disconnects clients'), or undefined to save at once. */
  confirm?: (body: Record<string, unknown>, loaded: Record<string, unknown>) => string | undefined;
  /** The PUT body from the edited object (e.g. without read-only status keys). */
  toBody?: (body: Record<string, unknown>) => Record<string, unknown>;
}

export interface ConfigPageDecl {
  title: string;
  /** Sibling pages as tabs: route and i18n title. */
  tabs?: { path: string; title: string }[];
  active?: string;
  sections: ConfigSection[];
  /** A page of one object (a listener): what shows when the broker has no such object. */
  missing?: Missing;
}

function Section({ section, missing }: { section: ConfigSection; missing?: Missing }) {
  const remote = useRemote(`config:${section.path}`, async (signal) => {
    const [doc, value, help] = await Promise.all([
      section.component ? loadSchema(section.schema ?? 'hotconf') : Promise.resolve(undefined as SchemaDocument | undefined),
      api.get<Record<string, unknown>>(section.path, { signal }),
      section.help?.(),
    ]);
    return { doc, value, help };
  });
  // Bumped by reset and after a save: the form starts again from the loaded values.
  const [round, setRound] = useState(0);
  if (remote.error && !remote.data) return <Failed error={remote.error} retry={remote.reload} missing={missing} />;
  if (!remote.data) return <Loading />;
  const { doc, value, help } = remote.data;
  const current = section.key ? value[section.key] : value;
  const save = async (edited: Record<string, unknown>) => {
    const question = section.confirm?.(edited, current as Record<string, unknown>);
    if (question && !(await confirm(t(question), { danger: true }))) return;
    const body = section.toBody ? section.toBody(edited) : edited;
    await api.put(section.path, section.key ? { [section.key]: body } : body);
    toast(t(section.success ?? 'config.saved'));
    remote.reload();
    setRound((n) => n + 1);
  };
  return (
    <div class="config-section" data-test={`config-${section.name}`}>
      {section.title && <h3>{t(section.title)}</h3>}
      <SchemaForm key={`${round}-${remote.loading ? 'l' : 'r'}`} doc={doc} component={section.component} overrides={section.overrides}
        extraFields={section.fields} value={current} onSubmit={save} test={`config-${section.name}-form`} help={help} snapshot
        actions={<button type="button" class="secondary outline" data-test="config-reset" onClick={() => setRound((n) => n + 1)}>{t('common.reset')}</button>} />
      {section.after?.()}
    </div>
  );
}

/** Renders a config page declaration. */
export function ConfigPage({ decl }: { decl: ConfigPageDecl }) {
  return (
    <section class="config-page" data-test="config-page">
      <header class="page-head"><h2>{t(decl.title)}</h2></header>
      {decl.tabs && <Tabs tabs={decl.tabs.map((tab) => ({ key: tab.path, title: tab.title }))} active={decl.active ?? ''} onChange={(path) => void navigate(path)} />}
      {decl.sections.filter((section) => !section.requires || has(section.requires)).map((section) => <Section key={section.path + (section.key ?? '')} section={section} missing={decl.missing} />)}
    </section>
  );
}
