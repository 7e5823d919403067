/**
 * Text contrast as WCAG 2 measures it: the ratio of the relative luminances of a text's colour and
 * of what it is drawn on, at least 4.5:1 for body text and 3:1 for large text (24 px, or 18.66 px
 * bold). Inactive controls are exempt, as WCAG exempts them.
 */
import type { Page } from 'playwright-core';

/** WCAG contrast ratio of two opaque CSS colours given as `rgb(r, g, b)`. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = color.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** One text below its contrast minimum. */
export interface LowContrast {
  text: string;
  /** The element's last three ancestors and itself, as `tag.class[data-test]`. */
  where: string;
  fg: string;
  bg: string;
  ratio: number;
  need: number;
}

// Page code as text: helpers defined inside it stay plain functions in the page. Every visible
// text node of the page is measured against the colour under it: its element's background, or
// the first ancestor's that paints one, blended over what lies under that when translucent, down
// to the canvas (the root's background). The layout's gradient only paints the menu's column,
// which has its own background; any other gradient or image under a text cannot be measured and
// the text is left out. Colours with alpha and the elements' opacity are blended as drawn. The
// page gives the colours; the ratio is taken here, by `contrast`.
const HELPERS = `
  for (const animation of document.getAnimations()) animation.finish();
  const rgba = (c) => { const m = c.match(/[\\d.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m[3] === undefined ? 1 : +m[3]]; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const canvas = () => {
    for (const e of [document.documentElement, document.body]) { const c = rgba(getComputedStyle(e).backgroundColor); if (c[3] > 0) return over(c, [255, 255, 255, 1]); }
    return [255, 255, 255, 1];
  };
  const background = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      const layout = e.classList.contains('layout');
      if (!layout && style.backgroundImage !== 'none') return null;
      const c = layout ? [0, 0, 0, 0] : rgba(style.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let under = layers.length && layers[layers.length - 1][3] >= 1 ? [255, 255, 255, 1] : canvas();
    for (let i = layers.length - 1; i >= 0; i--) under = over(layers[i], under);
    return under;
  };
  const where = (element) => {
    const parts = [];
    for (let e = element; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + [...e.classList].map((c) => '.' + c).join('') + (e.dataset.test ? '[' + e.dataset.test + ']' : ''));
    }
    return parts.join(' > ');
  };
`;

const AUDIT = `(() => {
  ${HELPERS}
  const texts = [];
  const measured = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || measured.has(element)) continue;
    measured.add(element);
    if (element.closest('svg, option, [disabled], [aria-disabled=true], label:has(:disabled)')) continue;
    const box = element.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const bg = background(element);
    if (!bg) continue;
    const style = getComputedStyle(element);
    let opacity = 1;
    for (let e = element; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const color = rgba(style.color);
    const fg = over([color[0], color[1], color[2], color[3] * opacity], bg);
    const size = parseFloat(style.fontSize);
    const rgb = (c) => 'rgb(' + c.slice(0, 3).join(', ') + ')';
    texts.push({ text: node.textContent.trim().slice(0, 40), where: where(element), fg: rgb(fg), bg: rgb(bg), large: size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) });
  }
  return texts;
})()`;

/** Every visible text on the page below its WCAG contrast minimum, once per element. */
export async function lowContrastText(page: Page): Promise<LowContrast[]> {
  const texts = await page.evaluate(AUDIT) as { text: string; where: string; fg: string; bg: string; large: boolean }[];
  const round = (color: string) => color.replace(/[\d.]+/g, (v) => String(Math.round(Number(v))));
  return texts
    .map(({ large, ...t }) => ({ ...t, ratio: contrast(t.fg, t.bg), need: large ? 3 : 4.5 }))
    .filter((t) => t.ratio < t.need)
    .map((t) => ({ ...t, fg: round(t.fg), bg: round(t.bg), ratio: Math.round(t.ratio * 100) / 100 }));
}

/** A control whose focus ring is missing, thinner than 2 px, or below 3:1 against what it is drawn on. */
export interface WeakRing {
  where: string;
  ring: string;
  bg: string;
  width: number;
  ratio: number;
}

// Page code: every visible control the keyboard reaches is focused in turn (after a key press, so
// the browser's :focus-visible applies to script focus too) and its outline read: drawn outside the
// control (a positive offset) it lies on the ancestor's background, drawn inside on the control's.
const FOCUS_AUDIT = `(() => {
  ${HELPERS}
  const rgb = (c) => 'rgb(' + c.slice(0, 3).join(', ') + ')';
  const controls = document.querySelectorAll('a[href], button:not(:disabled), input:not(:disabled):not([type=hidden]), select:not(:disabled), textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])');
  const rings = [];
  const before = document.activeElement;
  for (const control of controls) {
    const box = control.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || !control.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    control.focus({ preventScroll: true });
    if (document.activeElement !== control) continue;
    // A control drawn inside a box of its own (a code editor's text area) may ring that box instead (:focus-within).
    let ringed = control;
    for (let e = control; e && e !== document.body && getComputedStyle(ringed).outlineStyle === 'none'; e = e.parentElement) ringed = e;
    if (getComputedStyle(ringed).outlineStyle === 'none') ringed = control;
    const style = getComputedStyle(ringed);
    const inside = parseFloat(style.outlineOffset) < 0;
    const bg = background(inside ? ringed : ringed.parentElement) || background(document.body);
    const width = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth);
    rings.push({ where: where(control), ring: rgb(over(rgba(style.outlineColor), bg)), bg: rgb(bg), width });
  }
  if (before && before.focus) before.focus({ preventScroll: true });
  return rings;
})()`;

/** Every focusable control on the page whose focus ring is weak (see `WeakRing`), once per kind of control. */
export async function weakFocusRings(page: Page): Promise<WeakRing[]> {
  // A key press first: focus moved by script then shows its ring as the keyboard's would.
  await page.keyboard.press('Shift');
  const rings = await page.evaluate(FOCUS_AUDIT) as Omit<WeakRing, 'ratio'>[];
  return rings.map((r) => ({ ...r, ratio: Math.round(contrast(r.ring, r.bg) * 100) / 100 })).filter((r) => r.width < 2 || r.ratio < 3);
}
