/**
 * A key-value grid for detail pages: `<Descriptions items={[['clients.username', row.username]]} />`.
 * Labels are i18n keys; values are rendered as text (or as given nodes). Empty values show '—'.
 */
import type { ComponentChild } from 'preact';
import { t } from '../lib/i18n.ts';

export type DescriptionItem = [label: string, value: ComponentChild];

export function Descriptions({ items, test }: { items: DescriptionItem[]; test?: string }) {
  return (
    <dl class="descriptions" data-test={test}>
      {items.map(([label, value]) => (
        <div key={label} class="description">
          <dt>{t(label)}</dt>
          <dd>{value === undefined || value === null || value === '' ? '—' : typeof value === 'boolean' ? t(value ? 'common.yes' : 'common.no') : value}</dd>
        </div>
      ))}
    </dl>
  );
}
