/**
 * The geometry of the flow canvas view: pan and zoom, where a dropped or clicked node lands, and
 * the view that shows every node. A view maps a canvas point `p` to `view.x + p.x * view.zoom`
 * inside the canvas box (the drawing is scaled from its top-left corner). Pure numbers, no DOM.
 */
import { MARGIN, NODE_HEIGHT, NODE_WIDTH } from './graph.ts';

export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}
export type Rect = Point & Size;
export interface View extends Point {
  zoom: number;
}

export const ZOOM_MIN = 0.25;
export const ZOOM_MAX = 2;
/** One press of zoom in or out (ctrl+wheel too) multiplies or divides the scale by this. */
export const ZOOM_STEP = 1.2;
/** Room kept around the nodes when fitting, so ports and delete buttons stay visible as well. */
export const FIT_PADDING = 32;
const GAP = 20;

export const NODE_SIZE: Size = { width: NODE_WIDTH, height: NODE_HEIGHT };

/** The canvas point under `at`, a point inside the canvas box. */
export const toCanvas = (view: View, at: Point): Point => ({ x: (at.x - view.x) / view.zoom, y: (at.y - view.y) / view.zoom });

/** The part of the canvas a box of `size` shows. */
export const visibleArea = (view: View, size: Size): Rect => ({ ...toCanvas(view, { x: 0, y: 0 }), width: size.width / view.zoom, height: size.height / view.zoom });

/**
 * The view scaled to `zoom` with the canvas point under `at` left where it is. The scale stays
 * within the limits, or within the current scale when a fit went below them.
 */
export function zoomAt(view: View, zoom: number, at: Point): View {
  const next = Math.min(Math.max(ZOOM_MAX, view.zoom), Math.max(Math.min(ZOOM_MIN, view.zoom), zoom));
  const p = toCanvas(view, at);
  return { zoom: next, x: at.x - p.x * next, y: at.y - p.y * next };
}

/** The smallest rectangle holding all `rects`, or undefined for none. */
export function boundsOf(rects: Rect[]): Rect | undefined {
  if (!rects.length) return undefined;
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The view showing every rect whole, centred, with `padding` px around them, never enlarged past
 * 100 % (a small flow is not blown up). Example: one 200×60 node at the origin in a 400×300 box
 * gives `{ x: 100, y: 120, zoom: 1 }`. Without rects, the view at the origin at 100 %.
 */
export function fitView(rects: Rect[], box: Size, padding = FIT_PADDING): View {
  const b = boundsOf(rects);
  if (!b || box.width <= 0 || box.height <= 0) return { x: 0, y: 0, zoom: 1 };
  const room = (length: number) => Math.max(1, length - 2 * padding);
  // Below ZOOM_MIN only when nothing else shows them all: the nodes being seen comes first.
  const zoom = Math.min(1, room(box.width) / Math.max(1, b.width), room(box.height) / Math.max(1, b.height));
  return { zoom, x: (box.width - b.width * zoom) / 2 - b.x * zoom, y: (box.height - b.height * zoom) / 2 - b.y * zoom };
}

/** Moves a rect of `size` at `at` into `area`, `margin` from its sides where it fits (else to the top-left). */
export function clampInto(at: Point, size: Size, area: Rect, margin = MARGIN): Point {
  const along = (v: number, start: number, length: number, extent: number) => {
    const m = Math.max(0, Math.min(margin, (length - extent) / 2));
    return Math.max(start + m, Math.min(v, start + length - extent - m));
  };
  return { x: along(at.x, area.x, area.width, size.width), y: along(at.y, area.y, area.height, size.height) };
}

/** Where a node dropped at `at` (a point in the canvas box) lands: centred on it, inside the visible area. */
export function dropPosition(view: View, box: Size, at: Point, size: Size = NODE_SIZE): Point {
  const p = toCanvas(view, at);
  return clampInto({ x: p.x - size.width / 2, y: p.y - size.height / 2 }, size, visibleArea(view, box));
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;

/**
 * Where a node added by click goes: `preferred` (its column in the layout) when that is inside
 * `area` and free; else the free place of a grid over `area` nearest to it; else `preferred`
 * moved inside `area` (the area is full). An empty area (no layout) keeps `preferred`.
 */
export function placeNode(preferred: Point, taken: Rect[], area: Rect, size: Size = NODE_SIZE): Point {
  if (area.width <= 0 || area.height <= 0) return preferred;
  const inside = clampInto(preferred, size, area);
  const free = (p: Point) => !taken.some((r) => overlaps(r, { ...p, ...size }));
  if (inside.x === preferred.x && inside.y === preferred.y && free(preferred)) return preferred;
  const spots: Point[] = [];
  for (let y = area.y + MARGIN; y + size.height <= area.y + area.height - MARGIN / 2; y += size.height + GAP * 1.5) {
    for (let x = area.x + MARGIN; x + size.width <= area.x + area.width - MARGIN / 2; x += size.width + GAP * 2) spots.push({ x, y });
  }
  const distance = (p: Point) => Math.abs(p.x - inside.x) + Math.abs(p.y - inside.y);
  const best = spots.filter(free).sort((a, b) => distance(a) - distance(b))[0];
  return best ?? inside;
}
