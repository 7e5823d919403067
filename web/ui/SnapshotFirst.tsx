/**
 * "Snapshot first" beside a risky save (configuration, access control, integration): checked by
 * default, it takes a backup on the broker (`POST /data/export`) before the save, so System ›
 * Configuration history has a point to return to. The backup lives on the broker, not here.
 * Example: `const snap = useSnapshotFirst(); … await snap.before(); await save(); … {snap.box}`.
 */
import { useState } from 'react';
import { api } from '../lib/api.ts';
import { defineMessages, t } from '../lib/i18n.ts';

defineMessages({
  'snapshot.first': { zh: '先做快照', en: 'Snapshot first' },
  'snapshot.help': { zh: '保存前在 Broker 上创建备份，可在“配置历史”中对比或恢复', en: 'Makes a backup on the broker before saving, to compare or restore in Configuration history' },
});

export function useSnapshotFirst() {
  const [on, setOn] = useState(true);
  return {
    /** Takes the snapshot when the box is checked; rejects as the export does. */
    before: async () => {
      if (on) await api.post('/data/export', {});
    },
    box: (
      <label class="snapshot-first" title={t('snapshot.help')}>
        <input type="checkbox" checked={on} onChange={(e) => setOn((e.target as HTMLInputElement).checked)} data-test="snapshot-first" />
        {t('snapshot.first')}
      </label>
    ),
  };
}
