/** The Topic rewrite screen: the declaration rendered by the kit, and how rules are chosen. */
import { t } from '../../../lib/i18n.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { topicRewrite } from './rewrite.tsx';

export default function TopicRewritePage() {
  return (
    <>
      <ResourcePage decl={topicRewrite} />
      <p class="muted page-note" data-test="topic-rewrite-note">{t('topicRewrite.order')}</p>
    </>
  );
}
