/**
 * The drawer of one canvas node: its settings by kind (topic filter, event, data source,
 * function fields, WHERE condition, republish arguments, action), applied with Confirm, and its
 * outgoing connections, added from a list of the other nodes (a wrong one is refused with the
 * reason) and removed one by one, so a flow can
 * be built from the keyboard as well as by dragging on the canvas.
 */
import { useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import { publishTopic, requiredText, topicProblem } from '../../../lib/validators.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { Republish } from '../rules/OutputsEditor.tsx';
import { eventText } from '../rules/eventText.ts';
import type { RuleEvent } from '../rules/rules.tsx';
import { callsFunction, isComplete, isSink, nodeSummary, type FlowNode, type Graph } from './graph.ts';
import './messages.ts';

export const kindTitle = (node: FlowNode) => t(`flows.kind.${node.kind}`);
export const nodeTitle = (node: FlowNode) => {
  const text = nodeSummary(node) || (isComplete(node) ? '' : t('flows.notSet'));
  return text ? `${kindTitle(node)}: ${text}` : kindTitle(node);
};

type Errors = Record<string, string>;

/** What is wrong with the node's settings, by field (`value`, `topic`, `alias-<i>`). */
function check(node: FlowNode, graph: Graph): Errors {
  const errors: Errors = {};
  const value = (node.value ?? '').trim();
  if (node.kind === 'topic') {
    const problem = topicProblem(value, 'filter');
    if (problem) errors.value = t(`validation.${problem}`);
    else if (graph.nodes.some((n) => n.id !== node.id && n.kind === 'topic' && n.value === value)) errors.value = t('flows.topicExists');
  } else if (node.kind === 'function') {
    const fields = node.fields ?? [];
    fields.forEach((f, i) => {
      if (callsFunction(f.expr) && !f.alias.trim()) errors[`alias-${i}`] = t('flows.aliasRequired');
    });
    if (!fields.some((f) => f.expr.trim())) errors['expr-0'] = requiredText('flows.expression');
  } else if (node.kind === 'republish') {
    const topic = String(node.args?.topic ?? '');
    const problem = topic.trim() ? publishTopic(topic, {}) : t('validation.topicRequired');
    if (problem) errors.topic = problem;
  } else if (node.kind !== 'console' && !value) {
    // Named as the node's one field is labelled.
    errors.value = requiredText(({ event: 'flows.event', bridge: 'flows.source', action: 'flows.action', filter: 'flows.where' } as Record<string, string>)[node.kind] ?? 'flows.where');
  }
  return errors;
}

function Choice(props: { value: string; options: { value: string; label: string }[]; set: (v: string) => void; error?: string; label: string; test: string }) {
  return (
    <label>
      {props.label}
      <select value={props.value} aria-invalid={props.error ? true : undefined} data-test={props.test} onChange={(e) => props.set(e.currentTarget.value)}>
        <option value="">{t('flows.choose')}</option>
        {props.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      {props.error && <small class="field-error" data-test={`${props.test}-error`}>{props.error}</small>}
    </label>
  );
}

function Settings({ node, set, errors, events, actions, sources }: {
  node: FlowNode; set: (patch: Partial<FlowNode>) => void; errors: Errors; events: RuleEvent[]; actions: string[]; sources: string[];
}) {
  const value = node.value ?? '';
  const setValue = (v: string) => set({ value: v });
  switch (node.kind) {
    case 'topic':
      return (
        <label>
          {t('flows.topic')}
          <input value={value} placeholder="t/#" aria-invalid={errors.value ? true : undefined} data-test="flow-topic" onInput={(e) => setValue(e.currentTarget.value)} />
          {errors.value && <small class="field-error" data-test="flow-topic-error">{errors.value}</small>}
        </label>
      );
    case 'event': {
      const options = events.filter((e) => e.event.startsWith('$events/')).map((e) => ({ value: e.event, label: `${eventText(e, 'title')} (${e.event})` }));
      return <Choice label={t('flows.event')} value={value} options={options} set={setValue} error={errors.value} test="flow-event" />;
    }
    case 'bridge': {
      const options = sources.map((id) => ({ value: `$bridges/${id}`, label: id }));
      if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value.replace(/^\$\w+\//, '') });
      return <Choice label={t('flows.source')} value={value} options={options} set={setValue} error={errors.value} test="flow-bridge" />;
    }
    case 'action': {
      const options = actions.map((id) => ({ value: id, label: id }));
      if (value && !actions.includes(value)) options.unshift({ value, label: value });
      return <Choice label={t('flows.action')} value={value} options={options} set={setValue} error={errors.value} test="flow-action" />;
    }
    case 'filter':
      return (
        <label>
          {t('flows.where')}
          <textarea rows={4} value={value} placeholder="payload.temp > 30" aria-invalid={errors.value ? true : undefined} data-test="flow-where"
            onInput={(e) => setValue(e.currentTarget.value)} />
          {errors.value && <small class="field-error" data-test="flow-where-error">{errors.value}</small>}
        </label>
      );
    case 'function': {
      const fields = node.fields?.length ? node.fields : [{ expr: '', alias: '' }];
      const put = (i: number, patch: Partial<{ expr: string; alias: string }>) => set({ fields: fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
      return (
        <fieldset data-test="flow-fields">
          <legend>{t('flows.fields')}</legend>
          {fields.map((f, i) => (
            <div key={i} class="flow-field" data-test="flow-field">
              <input value={f.expr} placeholder={t('flows.expression')} aria-label={t('flows.expression')} data-test="flow-field-expr"
                aria-invalid={errors[`expr-${i}`] ? true : undefined} onInput={(e) => put(i, { expr: e.currentTarget.value })} />
              <span>AS</span>
              <input value={f.alias} placeholder={t('flows.alias')} aria-label={t('flows.alias')} data-test="flow-field-alias"
                aria-invalid={errors[`alias-${i}`] ? true : undefined} onInput={(e) => put(i, { alias: e.currentTarget.value })} />
              <button type="button" class="secondary outline" aria-label={t('flows.remove')} data-test="flow-field-remove"
                onClick={() => set({ fields: fields.filter((_, j) => j !== i) })}>×</button>
              {(errors[`alias-${i}`] || errors[`expr-${i}`]) && <small class="field-error" data-test="flow-field-error">{errors[`alias-${i}`] || errors[`expr-${i}`]}</small>}
            </div>
          ))}
          <button type="button" class="outline" data-test="flow-field-add" onClick={() => set({ fields: [...fields, { expr: '', alias: '' }] })}>+ {t('flows.addField')}</button>
        </fieldset>
      );
    }
    case 'republish':
      return <Republish args={node.args ?? {}} index={0} error={errors.topic} set={(args) => set({ args })} />;
    default:
      return <p class="muted">{t('flows.consoleHelp')}</p>;
  }
}

export function NodeDrawer(props: {
  node: FlowNode; graph: Graph; events: RuleEvent[]; actions: string[]; sources: string[];
  onApply: (node: FlowNode) => void; onRemove: () => void; onConnect: (to: string) => string | undefined; onDisconnect: (to: string) => void; onClose: () => void;
}) {
  const { graph } = props;
  const [draft, setDraft] = useState(props.node);
  const [errors, setErrors] = useState<Errors>({});
  const [target, setTarget] = useState('');
  const byId = (id: string) => graph.nodes.find((n) => n.id === id);
  const outgoing = graph.edges.filter((e) => e.from === props.node.id).map((e) => byId(e.to)).filter((n): n is FlowNode => !!n);
  // Every other node is offered; a wrong choice is refused with the reason, as on the canvas.
  const targets = graph.nodes.filter((n) => n.id !== props.node.id && !outgoing.includes(n));
  const [refused, setRefused] = useState('');
  const connect = () => {
    const problem = props.onConnect(target);
    setRefused(problem ? t(problem) : '');
    if (!problem) setTarget('');
  };
  const apply = () => {
    const found = check(draft, graph);
    setErrors(found);
    if (Object.keys(found).length === 0) props.onApply(draft);
  };
  return (
    <Drawer title={kindTitle(props.node)} onClose={props.onClose} test="flow-node-drawer">
      <Writable>
      <form class="flow-node-form" noValidate onSubmit={(e) => (e.preventDefault(), apply())}>
        <Settings node={draft} set={(patch) => setDraft((d) => ({ ...d, ...patch }))} errors={errors} events={props.events} actions={props.actions} sources={props.sources} />
        <div class="toolbar form-actions">
          <button type="submit" data-test="flow-node-apply">{t('flows.apply')}</button>
          <button type="button" class="secondary outline" data-test="flow-node-remove" onClick={props.onRemove}>{t('flows.removeNode')}</button>
        </div>
      </form>
      {!isSink(props.node.kind) && (
        <section class="flow-connections" data-test="flow-connections">
          <h4>{t('flows.connections')}</h4>
          {outgoing.length === 0 && <p class="muted">{t('flows.noConnections')}</p>}
          <ul>
            {outgoing.map((n) => (
              <li key={n.id} data-test="flow-connection" data-key={n.id}>
                <span>{nodeTitle(n)}</span>
                <button type="button" class="secondary outline" data-test="flow-connection-remove" onClick={() => props.onDisconnect(n.id)}>{t('flows.remove')}</button>
              </li>
            ))}
          </ul>
          <label>
            {t('flows.connectTo')}
            <div role="group">
              <select value={target} data-test="flow-connect-select" onChange={(e) => setTarget(e.currentTarget.value)}>
                <option value="">{t('flows.choose')}</option>
                {targets.map((n) => <option key={n.id} value={n.id}>{nodeTitle(n)}</option>)}
              </select>
              <button type="button" class="secondary" disabled={!target} data-test="flow-connect"
                onClick={connect}>{t('flows.connect')}</button>
            </div>
            {refused && <small class="field-error" role="alert" data-test="flow-connect-error">{refused}</small>}
          </label>
        </section>
      )}
      </Writable>
    </Drawer>
  );
}
