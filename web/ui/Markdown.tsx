/**
 * Markdown from outside the console (a plugin's README) shown as elements built from the tree of
 * `lib/markdown.ts`, never as HTML text, so nothing in it can run: raw HTML stays text, a link whose
 * target is not http(s), mailto or relative stays text, links open apart from the console, and an
 * image is a link to it (the console's CSP loads images from itself only, and stays as it is).
 */
import type { ComponentChildren } from 'preact';
import { parseMarkdown, type Block, type Inline } from '../lib/markdown.ts';

function span(n: Inline): ComponentChildren {
  if (typeof n === 'string') return n;
  switch (n.t) {
    case 'code': return <code>{n.text}</code>;
    case 'br': return <br />;
    case 'a': return <a href={n.href} target="_blank" rel="noopener noreferrer">{n.c.map(span)}</a>;
    case 'strong': return <strong>{n.c.map(span)}</strong>;
    case 'em': return <em>{n.c.map(span)}</em>;
    case 'del': return <del>{n.c.map(span)}</del>;
  }
}

/** A block; in a tight list an item's paragraphs are bare text, as CommonMark renders them. */
function block(b: Block, tight = false): ComponentChildren {
  switch (b.t) {
    case 'h': { const H = `h${b.level}` as 'h1'; return <H>{b.c.map(span)}</H>; }
    case 'p': return tight ? b.c.map(span) : <p>{b.c.map(span)}</p>;
    case 'pre': return <pre><code>{b.text}</code></pre>;
    case 'quote': return <blockquote>{b.c.map((c) => block(c))}</blockquote>;
    case 'hr': return <hr />;
    case 'list': {
      const items = b.items.map((item) => <li>{item.map((c) => block(c, b.tight))}</li>);
      return b.start === undefined ? <ul>{items}</ul> : <ol start={b.start}>{items}</ol>;
    }
    case 'table': return (
      <table>
        <thead><tr>{b.head.map((c, k) => <th data-align={b.align[k]}>{c.map(span)}</th>)}</tr></thead>
        <tbody>{b.rows.map((r) => <tr>{r.map((c, k) => <td data-align={b.align[k]}>{c.map(span)}</td>)}</tr>)}</tbody>
      </table>
    );
  }
}

export function Markdown({ text, test }: { text: string; test?: string }) {
  return <div class="markdown" data-test={test}>{parseMarkdown(text).map((b) => block(b))}</div>;
}
