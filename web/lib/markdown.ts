/**
 * The Markdown that plugin READMEs use, parsed into a small tree that `ui/Markdown.tsx` turns into
 * elements. It reads CommonMark's common parts and GitHub's tables, and nothing of raw HTML: a tag
 * in the text stays text. A link target survives only when it is `http:`, `https:`, `mailto:` or
 * relative; any other (`javascript:`, `vbscript:`, `data:` …, in any case, with whitespace or
 * control characters inside) turns the whole link back into its source text.
 */
export type Inline = string | { t: 'code'; text: string } | { t: 'strong' | 'em' | 'del'; c: Inline[] } | { t: 'a'; href: string; c: Inline[] } | { t: 'br' };
export type Align = 'left' | 'right' | 'center' | undefined;
export type Block =
  | { t: 'h'; level: number; c: Inline[] }
  | { t: 'p'; c: Inline[] }
  | { t: 'pre'; text: string }
  | { t: 'quote'; c: Block[] }
  | { t: 'list'; start?: number; tight: boolean; items: Block[][] }
  | { t: 'hr' }
  | { t: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] };

/** A URL a README may link to; whitespace and control characters (which browsers drop inside a scheme) are refused outright. */
export function safeUrl(url: string): boolean {
  if (!url || /[\s\x00-\x1f\x7f-\x9f]/.test(url)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return !scheme || ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|(\d{1,9})[.)])( {1,4}|\t|$)/;
const DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const blank = (line: string) => !line.trim();
const indent = (line: string) => /^ */.exec(line.replace(/\t/g, '    '))![0].length;
/** Removes up to n columns of leading space. */
const dedent = (line: string, n: number) => line.replace(/\t/g, '    ').replace(new RegExp(`^ {0,${n}}`), '');
const startsBlock = (line: string) => FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line) && !blank(line.replace(ITEM, ''));

export function parseMarkdown(text: string): Block[] {
  return blocks(text.replace(/\r\n?/g, '\n').split('\n'));
}

function blocks(lines: string[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if (blank(line)) { i++; continue; }
    if ((m = FENCE.exec(line))) {
      const fence = m[1]!, body: string[] = [], pad = indent(line);
      for (i++; i < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}[ \\t]*$`).test(lines[i]!); i++) body.push(dedent(lines[i]!, pad));
      i++;
      out.push({ t: 'pre', text: body.join('\n') });
    } else if ((m = HEADING.exec(line))) {
      out.push({ t: 'h', level: m[1]!.length, c: inline(m[2] ?? '') });
      i++;
    } else if (RULE.test(line)) {
      out.push({ t: 'hr' });
      i++;
    } else if (indent(line) >= 4) {
      const body: string[] = [];
      for (; i < lines.length && (blank(lines[i]!) || indent(lines[i]!) >= 4); i++) body.push(dedent(lines[i]!, 4));
      while (body.length && blank(body[body.length - 1]!)) body.pop();
      out.push({ t: 'pre', text: body.join('\n') });
    } else if (QUOTE.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && (QUOTE.test(lines[i]!) || body.length && !blank(lines[i]!) && !blank(body[body.length - 1]!) && !startsBlock(lines[i]!)); i++) body.push(lines[i]!.replace(QUOTE, ''));
      out.push({ t: 'quote', c: blocks(body) });
    } else if (ITEM.test(line)) {
      i = list(lines, i, out);
    } else if (line.includes('|') && DELIMITER.test(lines[i + 1] ?? '') && cells(lines[i + 1]!).length === cells(line).length) {
      const align = cells(lines[i + 1]!).map((c): Align => (c.endsWith(':') ? (c.startsWith(':') ? 'center' : 'right') : c.startsWith(':') ? 'left' : undefined));
      const head = cells(line).map(inline), rows: Inline[][][] = [];
      for (i += 2; i < lines.length && !blank(lines[i]!) && lines[i]!.includes('|'); i++) rows.push(align.map((_, k) => inline(cells(lines[i]!)[k] ?? '')));
      out.push({ t: 'table', align, head, rows });
    } else {
      const body = [line];
      for (i++; i < lines.length && !blank(lines[i]!) && !startsBlock(lines[i]!); i++) {
        if (/^ {0,3}(=+|-+)[ \t]*$/.test(lines[i]!)) break;
        body.push(lines[i]!);
      }
      const setext = /^ {0,3}(=+|-+)[ \t]*$/.exec(lines[i] ?? '');
      if (setext) i++;
      const c = inline(body.map((l) => l.trimStart()).join('\n').trimEnd());
      out.push(setext ? { t: 'h', level: setext[1]![0] === '=' ? 1 : 2, c } : { t: 'p', c });
    }
  }
  return out;
}

/** A bullet or numbered list from line i; an item holds the lines indented under its marker, nested lists among them. */
function list(lines: string[], i: number, out: Block[]): number {
  const first = ITEM.exec(lines[i]!)!;
  const ordered = first[3] !== undefined, items: Block[][] = [];
  let tight = true;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]!);
    if (!m || (m[3] !== undefined) !== ordered) break;
    const width = m[1]!.length + m[2]!.length + (m[4]!.length > 4 || !m[4] ? 1 : m[4]!.length);
    const body = [lines[i]!.slice(m[0].length)];
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      if (blank(line)) { body.push(''); continue; }
      if (indent(line) >= width) body.push(dedent(line, width));
      else if (!blank(body[body.length - 1]!) && !startsBlock(line)) body.push(line.trimStart());
      else break;
    }
    while (body.length && blank(body[body.length - 1]!)) {
      body.pop();
      const next = ITEM.exec(lines[i] ?? '');
      if (next && (next[3] !== undefined) === ordered) tight = false;
    }
    if (body.some((l, k) => blank(l) && k > 0 && !ITEM.test(body[k + 1] ?? '') && indent(body[k + 1] ?? '') === 0)) tight = false;
    items.push(blocks(body));
  }
  out.push({ t: 'list', start: ordered ? Number(first[3]) : undefined, tight, items });
  return i;
}

/** The cells of a table row, split on pipes that no backslash escapes. */
function cells(row: string): string[] {
  return row.trim().replace(/^\|/, '').replace(/(^|[^\\])\|$/, '$1').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

const ESCAPABLE = /^\\([!-/:-@[-`{-~])/;
const AUTOLINK = /^<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*|[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)>/i;
const BARE = /^(?:https?:\/\/|www\.)[^\s<]*[^\s<?!.,:;*_~'")\]]/i;

/** Inline spans: code, emphasis, links, images (kept as links), autolinks, line breaks; everything else is text. */
export function inline(src: string): Inline[] {
  const out: Inline[] = [];
  const text = (s: string) => (typeof out[out.length - 1] === 'string' ? (out[out.length - 1] += s) : out.push(s));
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i), ch = src[i]!;
    let m: RegExpExecArray | null;
    if (ch === '\\' && rest[1] === '\n') { out.push({ t: 'br' }); i += 2; continue; }
    if ((m = ESCAPABLE.exec(rest))) { text(m[1]!); i += 2; continue; }
    if (ch === '`' && (m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
      const code = m[2]!.replace(/\n/g, ' ');
      out.push({ t: 'code', text: /^ .*[^ ].* $/.test(code) ? code.slice(1, -1) : code });
      i += m[0].length;
      continue;
    }
    if (ch === '[' || ch === '!' && rest[1] === '[') {
      const link = parseLink(src, ch === '!' ? i + 1 : i);
      if (link) {
        const source = src.slice(i, link.end);
        if (!safeUrl(link.href)) text(source);
        else out.push({ t: 'a', href: link.href, c: ch === '!' ? [link.label || link.href] : inline(link.label) });
        i = link.end;
        continue;
      }
    }
    if (ch === '<' && (m = AUTOLINK.exec(rest))) {
      const href = m[1]!.includes(':') ? m[1]! : `mailto:${m[1]}`;
      if (safeUrl(href)) out.push({ t: 'a', href, c: [m[1]!] });
      else text(m[0]);
      i += m[0].length;
      continue;
    }
    if ((ch === 'h' || ch === 'w' || ch === 'H' || ch === 'W') && !/\w/.test(src[i - 1] ?? '') && (m = BARE.exec(rest))) {
      const href = /^www\./i.test(m[0]) ? `https://${m[0]}` : m[0];
      out.push({ t: 'a', href, c: [m[0]] });
      i += m[0].length;
      continue;
    }
    if ((ch === '*' || ch === '_' || ch === '~') && !(ch === '_' && /[\p{L}\p{N}]/u.test(src[i - 1] ?? ''))) {
      const run = ch === '~' ? '~~' : rest.startsWith(ch + ch) ? ch + ch : ch;
      const close = rest.startsWith(run) && /\S/.test(rest[run.length] ?? '') ? findClose(rest, run) : -1;
      if (close > 0) {
        out.push({ t: run === '~~' ? 'del' : run.length === 2 ? 'strong' : 'em', c: inline(rest.slice(run.length, close)) });
        i += close + run.length;
        continue;
      }
    }
    if (ch === '\n' && /  $/.test(src.slice(0, i))) {
      if (typeof out[out.length - 1] === 'string') out[out.length - 1] = (out[out.length - 1] as string).trimEnd();
      out.push({ t: 'br' });
      i++;
      continue;
    }
    text(ch);
    i++;
  }
  return out;
}

/** Where the emphasis opened by `run` at 0 closes: the next `run` after non-space, outside code spans, not intraword for `_`. */
function findClose(s: string, run: string): number {
  for (let k = run.length + 1; k < s.length; k++) {
    if (s[k] === '\\') { k++; continue; }
    if (s[k] === '`') {
      const code = /^(`+)[\s\S]*?[^`]\1(?!`)/.exec(s.slice(k));
      if (code) { k += code[0].length - 1; continue; }
    }
    if (s.startsWith(run, k) && /\S/.test(s[k - 1]!) && s[k + run.length] !== run[0] && !(run[0] === '_' && /[\p{L}\p{N}]/u.test(s[k + run.length] ?? ''))) return k;
    if (run.length === 2 && s.startsWith(run, k) && s[k + 2] === run[0]) k++;
  }
  return -1;
}

/** `[label](target "title")` starting at `at` (its `[`): the label, the target and where it ends; undefined when it is not a link. */
function parseLink(src: string, at: number): { label: string; href: string; end: number } | undefined {
  let depth = 0, k = at;
  for (; k < src.length; k++) {
    if (src[k] === '\\') k++;
    else if (src[k] === '[') depth++;
    else if (src[k] === ']' && --depth === 0) break;
  }
  if (k >= src.length || src[k + 1] !== '(') return undefined;
  const label = src.slice(at + 1, k);
  const m = /^\(\s*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/.exec(src.slice(k + 1));
  if (!m) return undefined;
  return { label, href: (m[1] ?? m[2] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1'), end: k + 1 + m[0].length };
}
