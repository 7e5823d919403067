/**
 * The view buttons above the flow canvas: zoom out, the scale (pressed: back to 100 %), zoom in
 * and fit to view. They change only what is seen, so every role may use them.
 */
import { t } from '../../../lib/i18n.ts';
import type { Canvas } from './canvas.ts';
import { ZOOM_MAX, ZOOM_MIN, ZOOM_STEP } from './view.ts';
import './messages.ts';

/** `canvas` is read at the click: the canvas is made after the first render. */
export function ViewTools({ canvas, zoom }: { canvas: () => Canvas | undefined; zoom: number }) {
  const percent = `${Math.round(zoom * 100)}%`;
  const tool = (test: string, label: string, run: () => void, text: string, disabled = false) => (
    <button type="button" class="outline secondary" aria-label={label} title={label} data-test={test} disabled={disabled} onClick={run}>{text}</button>
  );
  return (
    // data-view-only: these change how the canvas is seen, never the flow (read-only users have them too).
    <div class="flow-view" role="group" aria-label={t('flows.view')} data-test="flow-view" data-view-only="">
      {tool('flow-zoom-out', t('flows.zoomOut'), () => canvas()?.zoomTo(zoom / ZOOM_STEP), '−', zoom <= ZOOM_MIN)}
      {tool('flow-zoom-reset', `${t('flows.zoomReset')}: ${percent}`, () => canvas()?.zoomTo(1), percent)}
      {tool('flow-zoom-in', t('flows.zoomIn'), () => canvas()?.zoomTo(zoom * ZOOM_STEP), '+', zoom >= ZOOM_MAX)}
      {tool('flow-fit', t('flows.fit'), () => canvas()?.fit(), t('flows.fit'))}
    </div>
  );
}
