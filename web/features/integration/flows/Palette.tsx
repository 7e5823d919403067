/**
 * The node palette of the flow designer: one entry per node kind, by group, added by click or
 * dragged onto the canvas (HTML drag and drop carrying the kind). Kinds a flow holds once are
 * disabled when taken. The canvas side of a drop is `droppedKind`.
 */
import { t } from '../../../lib/i18n.ts';
import { Writable } from '../../../ui/Writable.tsx';
import type { Kind } from './graph.ts';
import './messages.ts';

const PALETTE: { group: string; kinds: Kind[] }[] = [
  { group: 'source', kinds: ['topic', 'event', 'bridge'] },
  { group: 'processing', kinds: ['function', 'filter'] },
  { group: 'sink', kinds: ['console', 'republish', 'action'] },
];
/** Kinds a flow holds once at most: one SELECT, one WHERE, one console output. */
const SINGLE: Kind[] = ['function', 'filter', 'console'];
/** The drag data of a palette entry: its kind. */
const DRAG_TYPE = 'application/x-emqx-flow-kind';

const addable = (kind: string, taken: Set<Kind>): kind is Kind =>
  PALETTE.some((p) => p.kinds.includes(kind as Kind)) && !(SINGLE.includes(kind as Kind) && taken.has(kind as Kind));

/** Whether a drag over the canvas comes from the palette. */
export const fromPalette = (e: DragEvent) => !!e.dataTransfer?.types.includes(DRAG_TYPE);

/** The kind a drop from the palette adds, or undefined when it adds nothing. */
export function droppedKind(e: DragEvent, taken: Set<Kind>): Kind | undefined {
  const kind = fromPalette(e) ? e.dataTransfer!.getData(DRAG_TYPE) : '';
  return addable(kind, taken) ? kind : undefined;
}

export function Palette({ taken, add }: { taken: Set<Kind>; add: (kind: Kind) => void }) {
  const start = (e: DragEvent, kind: Kind) => {
    e.dataTransfer?.setData(DRAG_TYPE, kind);
    if (e.dataTransfer) e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <Writable>
      <aside class="flow-palette" data-test="flow-palette">
        <p class="muted"><small>{t('flows.paletteHelp')}</small></p>
        {PALETTE.map(({ group, kinds }) => (
          <section key={group}>
            <h4>{t(`flows.group.${group}`)}</h4>
            {kinds.map((kind) => (
              <button key={kind} type="button" class={`outline secondary flow-${group}`} data-test={`flow-add-${kind}`}
                disabled={!addable(kind, taken)} draggable onClick={() => add(kind)} onDragStart={(e) => start(e, kind)}>
                {t(`flows.kind.${kind}`)}
              </button>
            ))}
          </section>
        ))}
      </aside>
    </Writable>
  );
}
