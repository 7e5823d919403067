/** Texts of the configuration history. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'history.intro': {
    zh: '历史即 Broker 上的备份，所有操作员共享。勾选两个快照对比，或与当前对比。',
    en: 'The history is the broker\'s backups, shared by every operator. Tick two snapshots to compare, or compare one with now.',
  },
  'history.snapshot': { zh: '立即快照', en: 'Snapshot now' },
  'history.snapshotDone': { zh: '快照已创建', en: 'Snapshot taken' },
  'history.time': { zh: '时间', en: 'Time' },
  'history.node': { zh: '节点', en: 'Node' },
  'history.filename': { zh: '文件名', en: 'File name' },
  'history.size': { zh: '大小', en: 'Size' },
  'history.compare': { zh: '对比所选', en: 'Compare selected' },
  'history.compareNow': { zh: '与当前对比', en: 'Compare with now' },
  'history.now': { zh: '当前', en: 'now' },
  'history.from': { zh: '{{a}} → {{b}}', en: '{{a}} → {{b}}' },
  'history.none': { zh: '配置没有差异', en: 'No differences in the configuration' },
  'history.added': { zh: '新增', en: 'added' },
  'history.removed': { zh: '删除', en: 'removed' },
  'history.changed': { zh: '修改', en: 'changed' },
  'history.tables': {
    zh: '内置数据库表（{{tables}}）随恢复一起写回，但不参与对比。',
    en: 'Built-in database tables ({{tables}}) are restored too but not compared.',
  },
  'history.kept': { zh: '备份中没有这些配置，恢复后保持不变：{{roots}}', en: 'Not in the backup, so left as they are: {{roots}}' },
  'history.restore': { zh: '恢复', en: 'Restore' },
  'history.restoreTitle': { zh: '从 {{time}} 的快照恢复', en: 'Restore the snapshot of {{time}}' },
  'history.restoreDo': { zh: '恢复这些变更', en: 'Restore these changes' },
  'history.restored': { zh: '已恢复', en: 'Restored' },
  'history.empty': { zh: '还没有快照', en: 'No snapshots yet' },
});
