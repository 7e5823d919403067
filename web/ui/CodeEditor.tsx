/**
 * A small code editor: a plain textarea over a highlighted copy of its text (tokens from
 * lib/sqlTokens.ts), line numbers, and word completion from a list the caller gives (columns,
 * functions). The textarea stays the real input, so typing, undo and screen readers work as usual;
 * no editor library is loaded.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { lineColumn, tokenize, wordBefore, type Token } from '../lib/sqlTokens.ts';

export interface Completion {
  label: string;
  /** 'function' inserts `label(`; anything else inserts the label. */
  kind: 'function' | 'column' | 'keyword';
  /** Short note shown beside the label (argument list, group). */
  detail?: string;
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  completions?: Completion[];
  label: string;
  id?: string;
  test?: string;
  invalid?: boolean;
  minLines?: number;
  /** Highlighting for another language (JSON, .proto …); rule SQL by default. */
  tokenize?: (text: string) => Token[];
  /** 1-based line marked in the gutter, e.g. where a compile error points. */
  errorLine?: number;
  /** Shown and selectable, not editable. */
  readOnly?: boolean;
}

const MAX_ITEMS = 8;

export function CodeEditor(props: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, left: 0 });
  const pendingCursor = useRef<number | null>(null);
  const [cursor, setCursor] = useState(-1);
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState(true);
  const tokens = useMemo(() => (props.tokenize ?? tokenize)(props.value), [props.value, props.tokenize]);
  const lines = props.value.split('\n').length;

  // Completion candidates for the word before the caret; none right after accepting or Escape.
  const { start, word } = cursor >= 0 ? wordBefore(props.value, cursor) : { start: 0, word: '' };
  const items = useMemo(() => {
    if (closed || word.length < 1) return [];
    const lower = word.toLowerCase();
    return (props.completions ?? []).filter((c) => c.label.toLowerCase().startsWith(lower) && c.label !== word).slice(0, MAX_ITEMS);
  }, [closed, word, props.completions]);

  useLayoutEffect(() => {
    if (pendingCursor.current === null || !area.current) return;
    area.current.setSelectionRange(pendingCursor.current, pendingCursor.current);
    pendingCursor.current = null;
  }, [props.value]);

  const accept = (item: Completion) => {
    const insert = item.kind === 'function' ? `${item.label}(` : item.label;
    const next = props.value.slice(0, start) + insert + props.value.slice(cursor);
    pendingCursor.current = start + insert.length;
    setCursor(start + insert.length);
    setClosed(true);
    props.onChange(next);
    area.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (items.length === 0) return;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) {
      event.preventDefault();
      setActive((i) => (i + moves[event.key] + items.length) % items.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      accept(items[Math.min(active, items.length - 1)]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setClosed(true);
    }
  };

  const onInput = (event: Event) => {
    const target = event.currentTarget as HTMLTextAreaElement;
    setCursor(target.selectionStart ?? target.value.length);
    setActive(0);
    setClosed(false);
    props.onChange(target.value);
  };

  // Gutter and text as tall as all lines, so a long text scrolls in the box, not inside the textarea.
  const fullHeight = `calc(${Math.max(lines, props.minLines ?? 1)} * 1.5em + 1rem)`;
  const place = lineColumn(props.value, start);
  const gutterWidth = () => (box.current?.firstElementChild as HTMLElement | null)?.offsetWidth ?? 0;
  return (
    <div class="code-editor-wrap">
      <div ref={box} class={`code-editor${props.invalid ? ' invalid' : ''}`} data-test={props.test}
        onScroll={(e) => setScroll({ top: e.currentTarget.scrollTop, left: e.currentTarget.scrollLeft })}>
        <ol class="code-gutter" aria-hidden="true" style={{ minHeight: fullHeight }}>
          {Array.from({ length: Math.max(lines, props.minLines ?? 1) }, (_, i) => <li key={i} class={i + 1 === props.errorLine ? 'code-error-line' : undefined}>{i + 1}</li>)}
        </ol>
        <div class="code-body" style={{ minHeight: fullHeight }}>
          <pre class="code-highlight" aria-hidden="true">
            {tokens.map((token, i) => (token.type === 'text' || token.type === 'ident'
              ? token.text
              : <span key={i} class={`tok-${token.type}`}>{token.text}</span>))}
            {'\n'}
          </pre>
          <textarea ref={area} id={props.id} value={props.value} aria-label={props.label} aria-invalid={props.invalid || undefined}
            aria-autocomplete="list" aria-expanded={items.length > 0} spellcheck={false} autoComplete="off" wrap="off" readOnly={props.readOnly}
            data-test={props.test && `${props.test}-input`}
            onInput={onInput} onKeyDown={onKeyDown} onBlur={() => setTimeout(() => setClosed(true), 150)}
            onClick={(e) => (setCursor((e.currentTarget as HTMLTextAreaElement).selectionStart), setClosed(true))} />
        </div>
      </div>
      {/* Outside the scrolling box so it is never clipped; placed at the word, minus the scroll. */}
      {items.length > 0 && (
        <ul class="code-complete" role="listbox" data-test={props.test && `${props.test}-completions`}
          style={{
            top: `calc(${place.line + 1} * 1.5em + 0.5rem + 1px - ${scroll.top}px)`,
            left: `calc(${gutterWidth() + 1}px + ${place.column}ch + 0.5rem - ${scroll.left}px)`,
          }}>
          {items.map((item, i) => (
            <li key={item.label} role="option" aria-selected={i === active} class={i === active ? 'active' : undefined}
              onMouseDown={(e) => (e.preventDefault(), accept(item))}>
              <span class={`tok-${item.kind === 'column' ? 'ident' : item.kind}`}>{item.label}</span>
              {item.detail && <small>{item.detail}</small>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
