/** The SQL examples drawer: each example's title and SQL, and a button putting it in the editor. */
import { t } from '../../../lib/i18n.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { SQL_TEMPLATES } from './sqlTemplates.ts';
import './messages.ts';

export function TemplatesDrawer({ onUse, onClose }: { onUse: (sql: string) => void; onClose: () => void }) {
  return (
    <Drawer title={t('rules.templates')} onClose={onClose} test="rule-templates">
      {SQL_TEMPLATES.map((tpl) => (
        <article key={tpl.title} data-test="rule-template">
          <h5>{t(tpl.title)}</h5>
          <pre><code>{tpl.sql}</code></pre>
          <button type="button" class="outline" data-test="rule-template-use" onClick={() => (onUse(tpl.sql), onClose())}>{t('rules.useTemplate')}</button>
        </article>
      ))}
    </Drawer>
  );
}
