/**
 * The declaration a plain EMQX collection screen is written as (STYLE.md habit 2): columns,
 * filters, a create form and row actions. `ResourcePage` renders it; features only declare.
 */
import type { ComponentChild } from 'preact';
import { api } from '../lib/api.ts';
import type { CapabilityName } from '../lib/broker.ts';
import type { Rule } from '../lib/validators.ts';

/**
 * Widget kinds of the registry in fields.tsx. Config kinds keep EMQX's wire values: `duration`
 * ("15s"), `bytesize` ("1MB"), `secret` (a password kept as "******" when unchanged), `cert`
 * (PEM text, typed or read from a file), `list` (string array, one per line), `code` (monospace text).
 * `duration`, `bytesize` and `number` also take a keyword listed in `keywords` ("infinity", "disabled").
 */
export type FieldKind = 'text' | 'password' | 'textarea' | 'number' | 'select' | 'switch' | 'datetime'
  | 'duration' | 'bytesize' | 'secret' | 'cert' | 'list' | 'code';

export interface FieldDecl {
  name: string;
  /** i18n key of the label. */
  label: string;
  kind?: FieldKind;
  rules?: Rule[];
  required?: boolean;
  /** i18n key of the message for an empty required field (e.g. 'validation.nameRequired'); the generic one by default. */
  requiredMessage?: string;
  /** Choices of a select; labels are i18n keys (or plain text, which `t` returns unchanged). */
  options?: { value: string; label: string }[];
  /** Choices loaded from the API (e.g. the node list), merged after `options`. */
  loadOptions?: (signal: AbortSignal) => Promise<{ value: string; label: string }[]>;
  placeholder?: string;
  /** i18n key of a help line under the field. */
  help?: string;
  autoComplete?: string;
  /** The keyboard a phone shows for a text field (`numeric` for a one-time code). */
  inputMode?: 'numeric' | 'decimal' | 'text';
  disabled?: boolean;
  /** Shown (and checked) only while this holds for the form's values, e.g. a date unless "never". */
  visible?: (values: Record<string, unknown>) => boolean;
  /** i18n key of a section heading shown above this field when it differs from the previous field's. */
  section?: string;
  /** Units offered by `duration` ('ms', 's', 'm', 'h', 'd') and `bytesize` ('B', 'KB', 'MB', 'GB'). */
  units?: string[];
  /** Words accepted instead of a number for `duration`, `bytesize` and `number`, e.g. ['infinity']. */
  keywords?: string[];
  /** File extensions a `cert` field's file picker accepts, e.g. ['.pem', '.crt', '.key']. */
  extensions?: string[];
  /** The broker capability (`lib/broker.ts`) without which the field is neither shown nor sent. */
  requires?: CapabilityName;
  /** A list filter shown only after "More filters" (FilterBar). */
  more?: boolean;
}

export interface FormDecl<Row = unknown> {
  /** i18n key of the drawer title. */
  title: string;
  fields: FieldDecl[];
  initial?: (row?: Row) => Record<string, unknown>;
  submit: (values: Record<string, unknown>, row?: Row) => Promise<unknown>;
  /** i18n key of the success toast. */
  success: string;
  /** Runs after a successful submit (and after the toast and the list reload). */
  after?: (values: Record<string, unknown>, row?: Row) => void;
}

export interface Column<Row> {
  key: string;
  /** i18n key of the header. */
  title: string;
  /** Text of the cell; defaults to `row[key]`. Rendered as text, never as HTML. */
  text?: (row: Row) => ComponentChild;
  /** Makes the cell a link to this route (e.g. the row's detail page). */
  link?: (row: Row) => string;
  /** The user may hide it with the column chooser; `hidden` starts it hidden. */
  optional?: boolean;
  hidden?: boolean;
  /** The broker capability the column's field needs (e.g. `rbac` for `role`). */
  requires?: CapabilityName;
}

export interface RowAction<Row> {
  key: string;
  /** i18n key of the button. */
  label: string;
  danger?: boolean;
  when?: (row: Row) => boolean;
  /** i18n key of a confirmation; `{{key}}` is filled with the row's key. */
  confirm?: string;
  run?: (row: Row) => Promise<unknown>;
  form?: FormDecl<Row>;
  /** i18n key of the success toast for `run`. */
  success?: string;
  /** Shows the row in a drawer instead of running anything (e.g. a payload). */
  view?: { title: string; render: (row: Row) => ComponentChild };
  /** A link to another screen instead (a gateway's set-up wizard); offered as any view is. */
  href?: (row: Row) => string;
  /** Offered to a read-only user too (`canWrite`): it changes nothing, or only their own things. `view` always is. */
  anyRole?: boolean | ((row: Row) => boolean);
}

/** A button above the list acting on the whole collection (clear all, clear history). */
export interface ToolAction {
  key: string;
  label: string;
  danger?: boolean;
  /** i18n key of a confirmation. */
  confirm?: string;
  run: () => Promise<unknown>;
  success?: string;
  /** A plain link instead of an action (e.g. to the settings of the feature). */
  href?: string;
  /** Offered to a read-only user too (a link that only shows something). */
  anyRole?: boolean;
}

/** An action on the selected rows; `confirm` may use `{{count}}`. */
export interface BulkAction<Row> {
  key: string;
  label: string;
  danger?: boolean;
  confirm?: string;
  run: (rows: Row[]) => Promise<unknown>;
  success?: string;
}

export interface ListMeta {
  page: number;
  limit: number;
  count?: number;
  hasnext?: boolean;
}

export interface ListResult<Row> {
  rows: Row[];
  meta: ListMeta;
}

export interface ResourceDecl<Row> {
  /** The EMQX URL noun; used for reloads (`touch`) and `data-test` names. */
  name: string;
  /** i18n key of the page title. */
  title: string;
  rowKey: (row: Row) => string;
  list: (query: Record<string, string>, signal: AbortSignal) => Promise<ListResult<Row>>;
  columns: Column<Row>[];
  filters?: FieldDecl[];
  create?: FormDecl<Row>;
  /**
   * A create drawer with its own content instead of a form (several rows at once, say); `close`
   * ends it after a save. Used when `create` is not given.
   */
  createView?: { title: string; render: (close: () => void) => ComponentChild };
  /** i18n key of the create button; default 'Create'. */
  createLabel?: string;
  actions?: RowAction<Row>[];
  tools?: ToolAction[];
  bulk?: BulkAction<Row>[];
  /** Reloads the list this often while the tab is visible (live views, DESIGN.md §7). */
  refreshMs?: number;
  /** i18n key of the empty-state text. */
  empty?: string;
  /** Its endpoints take a 6.x namespace (`ns`): a picker above the list, links and writes in the one picked. */
  namespaced?: boolean;
}

export const DEFAULT_LIMIT = 20;

function pageOf(query: Record<string, string>) {
  const page = Math.max(1, Number(query.page) || 1);
  const limit = Math.min(10000, Math.max(1, Number(query.limit) || DEFAULT_LIMIT));
  return { page, limit };
}

/**
 * Lister for endpoints that answer a bare array (envelope H: users, api_key, rewrite …): pages
 * and filters (substring, case-insensitive, on the filter's field) in the browser. `onLoad`
 * sees the whole list on every load (e.g. to check a new entry against it). `path` may be a loader
 * instead, for a list completed from other calls.
 */
export function arrayList<Row>(path: string | ((signal: AbortSignal) => Promise<Row[]>), onLoad?: (all: Row[]) => void) {
  return async (query: Record<string, string>, signal: AbortSignal): Promise<ListResult<Row>> => {
    const { page, limit } = pageOf(query);
    const all = typeof path === 'string' ? await api.get<Row[]>(path, { signal }) : await path(signal);
    onLoad?.(all);
    const filters = Object.entries(query).filter(([key, value]) => key !== 'page' && key !== 'limit' && value);
    const rows = all.filter((row) =>
      filters.every(([key, value]) => String((row as Record<string, unknown>)[key] ?? '').toLowerCase().includes(value.toLowerCase())),
    );
    return { rows: rows.slice((page - 1) * limit, page * limit), meta: { page, limit, count: rows.length } };
  };
}

/** Lister for paginated endpoints (envelopes A and B): the server pages and filters. */
export function pageList<Row>(path: string) {
  return async (query: Record<string, string>, signal: AbortSignal): Promise<ListResult<Row>> => {
    const { page, limit } = pageOf(query);
    const res = await api.get<{ data: Row[]; meta: ListMeta }>(path, { params: { ...query, page, limit }, signal });
    return { rows: res.data, meta: res.meta };
  };
}
