/**
 * The drawing surface of the flow designer over drawflow. The designer's graph is the truth; the
 * canvas draws it and reports what the user does on it (a connection drawn or removed, a node
 * deleted, moved or opened). Changes the designer makes itself are applied quietly, so they are
 * not reported back. Node contents are set as escaped HTML only (drawflow takes HTML). The view
 * (pan by dragging the empty canvas, zoom, fit) follows the pure geometry of `view.ts`.
 */
import Drawflow from 'drawflow';
import { isSink, isSource, NODE_HEIGHT, NODE_WIDTH, type FlowNode } from './graph.ts';
import { dropPosition, fitView, placeNode, visibleArea, zoomAt, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, type Point, type Rect, type View } from './view.ts';

export interface CanvasEvents {
  /** A connection drawn by the user; returns why it is refused (it is then taken away), or nothing. */
  connect: (from: string, to: string) => string | undefined;
  disconnect: (from: string, to: string) => void;
  removed: (id: string) => void;
  open: (id: string) => void;
  /** A node dragged to a new place (canvas coordinates). */
  moved?: (id: string, at: Point) => void;
  /** The scale after any change of the view. */
  zoomed?: (zoom: number) => void;
}

/** How the canvas may be used: `edit`, or `fixed` for a read-only user (nodes open, nothing moves or connects). */
export type CanvasMode = 'edit' | 'fixed';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The inside of a node: its kind, its text and, when set, a warning line. All escaped. */
export const nodeHtml = (kind: string, text: string, warning?: string) =>
  `<div class="flow-node-kind">${escapeHtml(kind)}</div><div class="flow-node-text" title="${escapeHtml(text)}">${escapeHtml(text)}</div>` +
  (warning ? `<div class="flow-node-warning">${escapeHtml(warning)}</div>` : '');

const group = (node: FlowNode) => (isSource(node.kind) ? 'source' : isSink(node.kind) ? 'sink' : 'processing');
const OUT = 'output_1';
const IN = 'input_1';

export class Canvas {
  private editor: Drawflow;
  private ids = new Map<string, number>();
  private names = new Map<string, string>();
  private quiet = false;
  private down = { x: 0, y: 0 };
  private container: HTMLElement;
  private events: CanvasEvents;

  constructor(container: HTMLElement, events: CanvasEvents, mode: CanvasMode = 'edit') {
    this.container = container;
    this.events = events;
    // drawflow pans when the press lands on an element whose first class is `parent-drawflow`;
    // zoomed out, the drawing no longer covers the box, so the box itself must be one.
    if (!container.classList.contains('parent-drawflow')) container.className = `parent-drawflow ${container.className}`;
    const editor = new Drawflow(container);
    editor.reroute = false;
    editor.editor_mode = mode;
    editor.zoom_min = ZOOM_MIN;
    editor.zoom_max = ZOOM_MAX;
    // ctrl+wheel zooms about the pointer (drawflow's own handler zooms about the corner); set
    // before start(), which binds it.
    (editor as unknown as { zoom_enter: (e: WheelEvent) => void }).zoom_enter = (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const at = this.local(e.clientX, e.clientY);
      this.setView(zoomAt(this.view, e.deltaY > 0 ? this.view.zoom / ZOOM_STEP : this.view.zoom * ZOOM_STEP, at));
    };
    editor.start();
    this.editor = editor;
    const name = (id: unknown) => this.names.get(String(id)) ?? '';
    editor.on('zoom', (zoom: number) => events.zoomed?.(zoom));
    editor.on('nodeMoved', (id: string) => {
      const data = editor.getNodeFromId(id);
      events.moved?.(name(id), { x: data.pos_x, y: data.pos_y });
    });
    editor.on('connectionCreated', ({ output_id, input_id }) => {
      if (this.quiet) return;
      if (events.connect(name(output_id), name(input_id))) this.calmly(() => editor.removeSingleConnection(output_id, input_id, OUT, IN));
    });
    editor.on('connectionRemoved', ({ output_id, input_id }) => {
      if (!this.quiet) events.disconnect(name(output_id), name(input_id));
    });
    editor.on('nodeRemoved', (id) => {
      const node = name(id);
      this.ids.delete(node);
      this.names.delete(String(id));
      if (!this.quiet) events.removed(node);
    });
    // A click on a node that did not move it opens it; so do Enter and Space on a focused node.
    container.addEventListener('pointerdown', (e) => (this.down = { x: e.clientX, y: e.clientY }));
    container.addEventListener('click', (e) => {
      const el = this.nodeElement(e.target);
      const still = Math.abs(e.clientX - this.down.x) + Math.abs(e.clientY - this.down.y) < 5;
      if (el && still && !(e.target as Element).closest('.input, .output, .drawflow-delete')) events.open(el.dataset.key!);
    });
    container.addEventListener('keydown', (e) => {
      const el = this.nodeElement(e.target);
      if (el && e.target === el && (e.key === 'Enter' || e.key === ' ')) (e.preventDefault(), events.open(el.dataset.key!));
    });
  }

  private nodeElement(target: EventTarget | null) {
    return (target as Element | null)?.closest?.<HTMLElement>('.drawflow-node[data-key]') ?? undefined;
  }

  private calmly(run: () => void) {
    this.quiet = true;
    try {
      run();
    } finally {
      this.quiet = false;
    }
  }

  add(node: FlowNode, label: string, html: string) {
    const inputs = isSource(node.kind) ? 0 : 1;
    const outputs = isSink(node.kind) ? 0 : 1;
    let id = 0;
    this.calmly(() => (id = Number(this.editor.addNode(node.kind, inputs, outputs, node.x, node.y, `flow-node flow-${group(node)}`, {}, html, false))));
    this.ids.set(node.id, id);
    this.names.set(String(id), node.id);
    const el = this.container.querySelector<HTMLElement>(`#node-${id}`)!;
    Object.assign(el.dataset, { test: 'flow-node', key: node.id, kind: node.kind });
    el.tabIndex = 0;
    el.setAttribute('aria-label', label);
    el.style.width = `${NODE_WIDTH}px`;
    el.style.minHeight = `${NODE_HEIGHT}px`;
  }

  /** Updates the text, label and state classes of a node. */
  paint(node: FlowNode, label: string, html: string, error: boolean) {
    const el = this.container.querySelector<HTMLElement>(`#node-${this.ids.get(node.id)}`);
    const content = el?.querySelector('.drawflow_content_node');
    if (!el || !content) return;
    if (content.innerHTML !== html) content.innerHTML = html;
    el.setAttribute('aria-label', label);
    el.classList.toggle('flow-node-error', error);
  }

  connect(from: string, to: string) {
    const a = this.ids.get(from);
    const b = this.ids.get(to);
    if (a !== undefined && b !== undefined) this.calmly(() => this.editor.addConnection(a, b, OUT, IN));
  }

  disconnect(from: string, to: string) {
    const a = this.ids.get(from);
    const b = this.ids.get(to);
    if (a !== undefined && b !== undefined) this.calmly(() => this.editor.removeSingleConnection(a, b, OUT, IN));
  }

  remove(id: string) {
    const n = this.ids.get(id);
    if (n !== undefined) this.calmly(() => this.editor.removeNodeId(`node-${n}`));
  }

  /** The current pan and scale (drawflow keeps them while the canvas is dragged). */
  get view(): View {
    return { x: this.editor.canvas_x, y: this.editor.canvas_y, zoom: this.editor.zoom };
  }

  private get size() {
    return { width: this.container.clientWidth, height: this.container.clientHeight };
  }

  /** A point of the page as a point inside the box (inside its border). */
  private local(clientX: number, clientY: number): Point {
    const box = this.container.getBoundingClientRect();
    return { x: clientX - box.left - this.container.clientLeft, y: clientY - box.top - this.container.clientTop };
  }

  /** Shows the drawing panned and scaled as `view` says. */
  setView(view: View) {
    const editor = this.editor;
    editor.canvas_x = view.x;
    editor.canvas_y = view.y;
    editor.zoom = editor.zoom_last_value = view.zoom;
    editor.precanvas.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`;
    this.events.zoomed?.(view.zoom);
  }

  /** Zooms to `zoom` about the middle of the box. */
  zoomTo(zoom: number) {
    const { width, height } = this.size;
    this.setView(zoomAt(this.view, zoom, { x: width / 2, y: height / 2 }));
  }

  /** The place and drawn size of every node, in canvas coordinates. */
  rects(): Rect[] {
    return [...this.ids.values()].flatMap((n) => {
      const el = this.container.querySelector<HTMLElement>(`#node-${n}`);
      const data = this.editor.getNodeFromId(n);
      return el ? [{ x: data.pos_x, y: data.pos_y, width: el.offsetWidth || NODE_WIDTH, height: el.offsetHeight || NODE_HEIGHT }] : [];
    });
  }

  /** Scales and pans so that every node is whole in view (nothing changes before layout). */
  fit() {
    const size = this.size;
    if (size.width && size.height) this.setView(fitView(this.rects(), size));
  }

  /** Where a node added by click goes: `preferred` when visible and free, else a free visible place. */
  place(preferred: Point): Point {
    return placeNode(preferred, this.rects(), visibleArea(this.view, this.size));
  }

  /** Where a node dropped at a point of the page lands, in canvas coordinates. */
  dropAt(clientX: number, clientY: number): Point {
    return dropPosition(this.view, this.size, this.local(clientX, clientY));
  }

  destroy() {
    this.calmly(() => this.editor.clear());
    this.container.replaceChildren();
  }
}
