/** Texts of the backup screen. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'backup.node': { zh: '节点', en: 'Node' },
  'backup.filename': { zh: '文件名', en: 'File name' },
  'backup.createdAt': { zh: '创建时间', en: 'Created At' },
  'backup.create': { zh: '创建备份', en: 'Create Backup' },
  'backup.createTip': {
    zh: '导出当前集群的配置和数据到备份文件。留空表示导出全部。',
    en: 'Exports the cluster configuration and data to a backup file. Leave empty to export everything.',
  },
  'backup.tableSets': { zh: '数据表集合（每行一个）', en: 'Table sets (one per line)' },
  'backup.rootKeys': { zh: '配置根键（每行一个）', en: 'Configuration root keys (one per line)' },
  'backup.created': { zh: '备份已创建', en: 'Backup created' },
  'backup.download': { zh: '下载', en: 'Download' },
  'backup.downloaded': { zh: '备份已下载', en: 'Backup downloaded' },
  'backup.restore': { zh: '恢复', en: 'Restore' },
  'backup.confirmRestore': {
    zh: '确定从 {{key}} 恢复吗？当前配置将被备份中的配置覆盖。',
    en: 'Restore from {{key}}? The current configuration is replaced by the one in the backup.',
  },
  'backup.restored': { zh: '恢复成功', en: 'Backup restored' },
  'backup.confirmDelete': { zh: '确定删除备份文件 {{key}} 吗？', en: 'Delete the backup file {{key}}?' },
  'backup.deleted': { zh: '备份已删除', en: 'Backup deleted' },
  'backup.upload': { zh: '上传备份', en: 'Upload Backup' },
  'backup.uploadTip': { zh: '上传之前导出的备份文件（.tar.gz），之后可以从列表中恢复。', en: 'Upload a backup file exported before (.tar.gz); then restore it from the list.' },
  'backup.uploaded': { zh: '备份已上传', en: 'Backup uploaded' },
  'backup.empty': { zh: '暂无备份文件', en: 'No backup files yet' },
});
