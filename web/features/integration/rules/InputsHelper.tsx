/**
 * The data inputs of the rule editor: a topic filter or one of the `$events/...` events of
 * `/rule_events` goes into the FROM clause; each event lists its columns (offered while typing).
 */
import { useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import { topicProblem } from '../../../lib/validators.ts';
import { eventText } from './eventText.ts';
import type { RuleEvent } from './rules.tsx';
import './messages.ts';

export function InputsHelper({ events, onAdd }: { events: RuleEvent[]; onAdd: (source: string) => void }) {
  const [topic, setTopic] = useState('');
  const bad = topic !== '' && topicProblem(topic, 'filter') !== undefined;
  return (
    <aside class="rule-side" data-test="rule-inputs">
      <h4>{t('rules.inputs')}</h4>
      <p class="muted"><small>{t('rules.inputsHelp')}</small></p>
      <label>
        {t('rules.topic')}
        <div role="group">
          <input value={topic} placeholder="t/#" aria-invalid={bad || undefined} data-test="rule-input-topic"
            onInput={(e) => setTopic(e.currentTarget.value)} />
          <button type="button" class="secondary" disabled={!topic || bad} data-test="rule-input-topic-add"
            onClick={() => (onAdd(topic), setTopic(''))}>{t('rules.add')}</button>
        </div>
      </label>
      <h5>{t('rules.events')}</h5>
      {events.filter((e) => e.event.startsWith('$events/')).map((e) => (
        <details key={e.event} data-test="rule-event" data-key={e.event}>
          <summary>{eventText(e, 'title')}</summary>
          <small class="muted">{eventText(e, 'description')}</small>
          <div>
            <code>{e.event}</code>{' '}
            <button type="button" class="outline" style={{ padding: '0.1rem 0.5rem', fontSize: '0.8rem' }} data-test="rule-event-add"
              onClick={() => onAdd(e.event)}>{t('rules.add')}</button>
          </div>
          <small>{t('rules.columns')}</small>
          <ul>{e.columns.map((c) => <li key={c}>{c}</li>)}</ul>
        </details>
      ))}
    </aside>
  );
}
