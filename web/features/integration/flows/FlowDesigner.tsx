/**
 * The flow designer for `/flow/create` and `/flow/:id` (emqx-api-part2 §6): the rule drawn as
 * source, processing and sink nodes on a drawflow canvas. Nodes come from the palette (clicked or
 * dragged onto the canvas) and are set up in a drawer; connections are drawn on the canvas or
 * chosen in the drawer; the canvas zooms, pans and fits the flow. Saving checks the graph and
 * sends the rule (`POST /rules`, `PUT /rules/{id}`) with its SQL regenerated.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api, ApiError, isNotFound } from '../../../lib/api.ts';
import { canWrite } from '../../../lib/broker.ts';
import { confirm } from '../../../lib/confirm.ts';
import { errorText, handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate, useUnsavedGuard } from '../../../lib/navigation.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { namePattern } from '../../../lib/validators.ts';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { bridgeId, type Bridge } from '../connectors/bridge.ts';
import { newRepublish } from '../rules/OutputsEditor.tsx';
import { ruleLink, rulePath, type Rule, type RuleEvent } from '../rules/rules.tsx';
import { Canvas, nodeHtml } from './canvas.ts';
import {
  connectionProblem, graphToRule, isComplete, isDeleted, nextPosition, nodeSummary, ruleToGraph, validateGraph,
  type Graph, type Kind, type FlowNode, type Problem,
} from './graph.ts';
import { droppedKind, fromPalette, Palette } from './Palette.tsx';
import type { Point } from './view.ts';
import { ViewTools } from './ViewTools.tsx';
import { kindTitle, NodeDrawer, nodeTitle } from './NodeDrawer.tsx';
import { addDesignerStyles } from './styles.ts';
import './messages.ts';
import '../rules/messages.ts';

interface Meta {
  id: string;
  description: string;
  enable: boolean;
}

interface Known {
  actions: string[];
  sources: string[];
}

function Designer({ rule, events, known, creating }: { rule?: Rule; events: RuleEvent[]; known: Known; creating: boolean }) {
  const initial = useMemo<Graph>(() => (rule && ruleToGraph(rule)) || { nodes: [], edges: [] }, []);
  const [meta, setMeta] = useState<Meta>({ id: rule?.id ?? '', description: rule?.description ?? '', enable: rule?.enable ?? true });
  const [graph, setGraphState] = useState(initial);
  const current = useRef(initial);
  const canvas = useRef<Canvas | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<string>();
  const [problems, setProblems] = useState<Problem[]>([]);
  const [nameError, setNameError] = useState('');
  const [busy, setBusy] = useState(false);
  const [zoom, setZoom] = useState(1);
  const fitted = useRef(false);
  const body = (g: Graph, m: Meta) => JSON.stringify(graphToRule(g, { ...m, id: m.id.trim() }));
  const [saved, setSaved] = useState(() => body(initial, meta));
  const dirty = body(graph, meta) !== saved;
  useUnsavedGuard(dirty && !busy);
  addDesignerStyles();

  /** Changes the graph at once (canvas events may follow each other before a render). */
  const update = (change: (g: Graph) => Graph) => {
    current.current = change(current.current);
    setGraphState(current.current);
  };
  const addEdge = (from: string, to: string) => update((g) => ({ ...g, edges: [...g.edges, { from, to }] }));
  const dropEdge = (from: string, to: string) => update((g) => ({ ...g, edges: g.edges.filter((e) => e.from !== from || e.to !== to) }));
  const dropNode = (id: string) => update((g) => ({ nodes: g.nodes.filter((n) => n.id !== id), edges: g.edges.filter((e) => e.from !== id && e.to !== id) }));
  /** Why `from → to` is refused (shown), or nothing when it was added. */
  const tryConnect = (from: string, to: string) => {
    const problem = connectionProblem(current.current, from, to);
    setProblems(problem ? [{ message: problem, nodes: [from, to] }] : []);
    if (!problem) addEdge(from, to);
    return problem;
  };

  useEffect(() => {
    const c = new Canvas(box.current!, {
      connect: tryConnect,
      disconnect: dropEdge,
      removed: (id) => (dropNode(id), setOpen((o) => (o === id ? undefined : o))),
      open: setOpen,
      moved: (id, at) => update((g) => ({ ...g, nodes: g.nodes.map((n) => (n.id === id ? { ...n, ...at } : n)) })),
      zoomed: setZoom,
    }, canWrite() ? 'edit' : 'fixed');
    canvas.current = c;
    for (const node of initial.nodes) c.add(node, nodeTitle(node), '');
    for (const edge of initial.edges) c.connect(edge.from, edge.to);
    return () => c.destroy();
  }, []);

  // Node texts follow the graph, the problems found and the lists of actions and sources.
  const marked = new Set(problems.flatMap((p) => p.nodes));
  useEffect(() => {
    for (const node of graph.nodes) {
      const warning = isDeleted(node, known) ? t('flows.nodeDeleted') : undefined;
      canvas.current?.paint(node, nodeTitle(node), nodeHtml(kindTitle(node), nodeSummary(node) || (isComplete(node) ? '' : t('flows.notSet')), warning), marked.has(node.id) || !!warning);
    }
  });
  // The whole flow in view once its nodes have their texts (and so their heights).
  useEffect(() => {
    if (fitted.current || !canvas.current) return;
    fitted.current = true;
    if (initial.nodes.length) canvas.current.fit();
  });

  /** Adds a node of `kind` at `at` (dropped), or in its column where free and in view (clicked). */
  const add = (kind: Kind, at?: Point) => {
    const g = current.current;
    let n = g.nodes.length + 1;
    while (g.nodes.some((x) => x.id === `${kind}-${n}`)) n++;
    const preferred = nextPosition(g, kind);
    const node: FlowNode = { id: `${kind}-${n}`, kind, ...(at ?? canvas.current?.place(preferred) ?? preferred) };
    if (kind === 'function') node.fields = [{ expr: '', alias: '' }];
    if (kind === 'republish') node.args = (newRepublish() as { args: Record<string, unknown> }).args;
    update((x) => ({ ...x, nodes: [...x.nodes, node] }));
    canvas.current?.add(node, nodeTitle(node), '');
    setOpen(node.id);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const id = meta.id.trim();
    const badName = id ? namePattern(id, {}) : t('validation.nameRequired');
    setNameError(badName ?? '');
    const found = validateGraph(graph, known);
    setProblems(found);
    if (badName || found.length) return;
    const rule = graphToRule(graph, { ...meta, id });
    setBusy(true);
    try {
      if (creating) await api.post('/rules', rule);
      else await api.put(rulePath(id), rule);
      toast(t(creating ? 'flows.created' : 'flows.saved'));
      touch('flows');
      setSaved(body(graph, meta));
      if (creating) await navigate('/flow', { force: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        if (/rule id/i.test(error.message)) setNameError(errorText(error));
        else setProblems([{ message: errorText(error), nodes: [] }]);
      } else handleError(error);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (dirty && !(await confirm(t('flows.confirmCancel')))) return;
    await navigate('/flow', { force: true });
  };

  const node = graph.nodes.find((n) => n.id === open);
  const taken = new Set(graph.nodes.map((n) => n.kind));
  const dragged = (e: DragEvent) => canWrite() && fromPalette(e);
  const drop = (e: DragEvent) => {
    if (!dragged(e)) return;
    e.preventDefault();
    const kind = droppedKind(e, taken);
    if (kind && canvas.current) add(kind, canvas.current.dropAt(e.clientX, e.clientY));
  };
  // The drawer holds a form of its own, so it stands beside this one, not inside it.
  return (
    <>
    <form class="flow-editor" noValidate onSubmit={save} data-test="flow-form">
      <Writable>
      <div class="flow-head">
        <label>
          {t('flows.name')}
          <input value={meta.id} disabled={!creating} aria-invalid={nameError ? true : undefined} data-test="flow-name"
            onInput={(e) => setMeta({ ...meta, id: e.currentTarget.value })} />
          {nameError && <small class="field-error" data-test="flow-name-error">{nameError}</small>}
        </label>
        <label>
          {t('flows.description')}
          <input value={meta.description} data-test="flow-description" onInput={(e) => setMeta({ ...meta, description: e.currentTarget.value })} />
        </label>
        {!creating && (
          <label>
            <input type="checkbox" role="switch" checked={meta.enable} data-test="flow-enable" onChange={(e) => setMeta({ ...meta, enable: e.currentTarget.checked })} />
            {t('flows.enable')}
          </label>
        )}
      </div>
      </Writable>
      {problems.length > 0 && (
        <div class="flow-problems" role="alert" data-test="flow-problems">
          <ul>{problems.map((p) => <li key={p.message} data-test="flow-problem">{t(p.message) || p.message}</li>)}</ul>
        </div>
      )}
      <div class="flow-designer">
        <Palette taken={taken} add={add} />
        <div class="flow-stage">
          <ViewTools canvas={() => canvas.current} zoom={zoom} />
          <div class="flow-canvas" ref={box} aria-label={t('flows.canvas')} data-test="flow-canvas"
            onDragOver={(e) => dragged(e) && (e.preventDefault(), e.dataTransfer && (e.dataTransfer.dropEffect = 'copy'))} onDrop={drop} />
        </div>
      </div>
      <div class="toolbar form-actions">
        {canWrite() && <button type="submit" aria-busy={busy} disabled={busy} data-test="flow-save">{t(creating ? 'common.create' : 'common.save')}</button>}
        <button type="button" class="secondary" data-test="flow-cancel" onClick={() => void cancel()}>{t('common.cancel')}</button>
      </div>
    </form>
      {node && (
        <NodeDrawer key={node.id} node={node} graph={graph} events={events} actions={known.actions} sources={known.sources}
          onClose={() => setOpen(undefined)}
          onApply={(next) => (update((g) => ({ ...g, nodes: g.nodes.map((n) => (n.id === next.id ? next : n)) })), setOpen(undefined))}
          onRemove={() => (canvas.current?.remove(node.id), dropNode(node.id), setOpen(undefined))}
          onConnect={(to) => {
            const problem = tryConnect(node.id, to);
            if (!problem) canvas.current?.connect(node.id, to);
            return problem;
          }}
          onDisconnect={(to) => (canvas.current?.disconnect(node.id, to), dropEdge(node.id, to))} />
      )}
    </>
  );
}

export default function FlowDesigner({ id: raw }: { id?: string }) {
  const id = raw === undefined ? undefined : decodeURIComponent(raw);
  const rule = useRemote('rules', (signal) => (id ? api.get<Rule>(rulePath(id), { signal }) : Promise.resolve(undefined)), id ?? '');
  const events = useRemote('rule_events', (signal) => api.get<RuleEvent[]>('/rule_events', { signal }), '');
  const actions = useRemote('actions', (signal) => api.get<Bridge[]>('/actions', { signal }), '');
  const sources = useRemote('sources', (signal) => api.get<Bridge[]>('/sources', { signal }), '');
  const known = useMemo(
    () => (actions.data && sources.data ? { actions: actions.data.map(bridgeId), sources: sources.data.map(bridgeId) } : undefined),
    [actions.data, sources.data],
  );
  if (id && isNotFound(rule.error)) {
    return <NotFound text={t('flows.notFound')} back="/flow" backTitle="integration.flows" test="flow-not-found" />;
  }
  const error = rule.error ?? events.error ?? actions.error ?? sources.error;
  // Keep the designer once shown: reloads after a save must not reset the canvas.
  if ((id && !rule.data) || !events.data || !known) {
    return error ? <Failed error={error} retry={() => (rule.reload(), events.reload(), actions.reload(), sources.reload())} /> : <Loading />;
  }
  if (rule.data && !ruleToGraph(rule.data)) {
    return (
      <section class="state" data-test="flow-unsupported">
        <p>{t('flows.unsupported')}</p>
        <Link href={ruleLink(rule.data.id)}>{t('flows.openRule')}</Link>
      </section>
    );
  }
  return (
    <section data-test="flow-designer">
      <Designer key={id ?? 'new'} rule={rule.data} events={events.data} known={known} creating={!id} />
    </section>
  );
}
