/**
 * Management > Backup as one declaration: `GET /data/files` (paged), export (`POST /data/export`; the table and key choice from 5.8, everything before),
 * download (`GET /data/files/{filename}?node=`, named by content-disposition), restore
 * (`POST /data/import`) and delete (`DELETE /data/files/{filename}?node=`).
 */
import { api } from '../../../lib/api.ts';
import { download } from '../../../lib/download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import './messages.ts';

export interface BackupFile {
  node: string;
  filename: string;
  created_at: string;
}

const filePath = (f: BackupFile) => `/data/files/${encodeURIComponent(f.filename)}`;
const files = pageList<BackupFile>('/data/files');
const list = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value : undefined);

export const backups: ResourceDecl<BackupFile> = {
  name: 'backup',
  title: 'management.backup',
  rowKey: (f) => f.filename,
  // `upload` is the drawer's switch in the URL, not a filter of the API.
  list: ({ upload: _drawer, ...query }, signal) => files(query, signal),
  empty: 'backup.empty',
  // The upload drawer opens from the URL (`?upload=1`, BackupPage), so the button sits with the others.
  tools: [{ key: 'upload', label: 'backup.upload', href: '/backup?upload=1', run: async () => undefined }],
  columns: [
    { key: 'node', title: 'backup.node' },
    { key: 'filename', title: 'backup.filename', text: (f) => <code>{f.filename}</code> },
    { key: 'created_at', title: 'backup.createdAt', text: (f) => <span class="nowrap">{formatDateTime(f.created_at)}</span> },
  ],
  createLabel: 'backup.create',
  create: {
    title: 'backup.create', success: 'backup.created',
    fields: [
      { name: 'table_sets', label: 'backup.tableSets', kind: 'list', help: 'backup.createTip', requires: 'backupSelection' },
      { name: 'root_keys', label: 'backup.rootKeys', kind: 'list', requires: 'backupSelection' },
    ],
    submit: (v) => api.post('/data/export', { table_sets: list(v.table_sets), root_keys: list(v.root_keys) }),
  },
  actions: [
    { key: 'download', label: 'backup.download', anyRole: true, success: 'backup.downloaded', run: (f) => download(filePath(f), { node: f.node }, f.filename) },
    { key: 'restore', label: 'backup.restore', danger: true, confirm: 'backup.confirmRestore', success: 'backup.restored', run: (f) => api.post('/data/import', { node: f.node, filename: f.filename }) },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'backup.confirmDelete', success: 'backup.deleted', run: (f) => api.del(filePath(f), { params: { node: f.node } }) },
  ],
};
