// Drops the rules of a stylesheet (Pico) that cannot match anything the console renders.
//
// Two halves: `collectUsage` reads the console's source (and the third-party code that builds
// DOM) and gathers the element names, class names, attribute names and attribute values it can
// produce; `purgeCss` parses a stylesheet and removes a selector only when it provably needs
// something absent from that usage. Whatever the parser does not fully understand is kept.

const IDENT_CHAR = /[A-Za-z0-9_\-\u0080-\uffff]/;
const TOKEN = /-?[A-Za-z_][A-Za-z0-9_-]*/g;
/** Elements present in every page whatever the components render. */
const DOCUMENT_TAGS = ['html', 'head', 'body', 'meta', 'title', 'link', 'script', 'style', 'noscript', 'template'];
/** Attribute values a boolean-ish expression renders (`aria-invalid={!!error}` → "true"). */
const RENDERED_VALUES = ['true', 'false'];
/**
 * Pseudo-classes whose argument is a selector list of which one entry must match (the element
 * itself, or for :has() an element next to or under it).
 */
const MATCHES_ANY = new Set(['is', 'where', 'matches', '-webkit-any', '-moz-any', 'has']);
/** Pseudo-classes that never match in a document's stylesheet (shadow-tree hosts only). */
const NEVER_IN_DOCUMENT = new Set(['host', 'host-context']);
/** At-rules whose block holds rules (purged recursively); any other block is kept as it is. */
const GROUP_RULES = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style']);

// ---------------------------------------------------------------------------------------------
// Usage

/**
 * Splits JavaScript/TypeScript source into the contents of its string literals and the static
 * parts of its template literals, skipping comments and regular expressions. Each template
 * part records whether an interpolation touches it on the left or right, so a class assembled
 * as `tag-${kind}` is known by its prefix.
 * @param {string} src
 * @returns {{ text: string, openLeft: boolean, openRight: boolean }[]}
 */
export function stringLiterals(src) {
  const out = [];
  let i = 0;
  const n = src.length;
  // The last significant character in code, to tell a regular expression from a division.
  let last = '';
  let lastWord = '';
  const REGEX_AFTER = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
  const REGEX_KEYWORDS = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await']);

  /** Reads code until an unmatched `}` (for `${…}`) or the end; returns the index after it. */
  function code(stopAtBrace) {
    let depth = 0;
    while (i < n) {
      const c = src[i];
      if (c === '/' && src[i + 1] === '/') {
        const end = src.indexOf('\n', i);
        i = end < 0 ? n : end;
        continue;
      }
      if (c === '/' && src[i + 1] === '*') {
        const end = src.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
        continue;
      }
      if (c === '"' || c === "'") {
        quoted(c);
        last = 'x';
        lastWord = '';
        continue;
      }
      if (c === '`') {
        template();
        last = 'x';
        lastWord = '';
        continue;
      }
      if (c === '/' && (REGEX_AFTER.has(last) || REGEX_KEYWORDS.has(lastWord))) {
        regex();
        last = 'x';
        lastWord = '';
        continue;
      }
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      if (/[A-Za-z0-9_$]/.test(c)) {
        let j = i;
        while (j < n && /[A-Za-z0-9_$]/.test(src[j])) j++;
        lastWord = src.slice(i, j);
        last = 'x';
        i = j;
        continue;
      }
      if (c === '{') depth++;
      if (c === '}') {
        if (depth === 0 && stopAtBrace) {
          i++;
          return;
        }
        depth--;
      }
      last = c === ')' || c === ']' ? 'x' : c;
      lastWord = '';
      i++;
    }
  }

  /** A '…' or "…" literal. A line break ends it too (a stray quote in JSX text must not swallow the file). */
  function quoted(q) {
    let j = i + 1;
    let text = '';
    while (j < n && src[j] !== q && src[j] !== '\n') {
      if (src[j] === '\\' && j + 1 < n) {
        text += src[j + 1] === '\n' ? '' : src[j + 1];
        j += 2;
        continue;
      }
      text += src[j++];
    }
    out.push({ text, openLeft: false, openRight: false });
    i = j + 1;
  }

  function template() {
    i++;
    let text = '';
    let openLeft = false;
    while (i < n) {
      const c = src[i];
      if (c === '\\' && i + 1 < n) {
        text += src[i + 1];
        i += 2;
        continue;
      }
      if (c === '`') {
        out.push({ text, openLeft, openRight: false });
        i++;
        return;
      }
      if (c === '$' && src[i + 1] === '{') {
        out.push({ text, openLeft, openRight: true });
        i += 2;
        code(true);
        text = '';
        openLeft = true;
        continue;
      }
      text += c;
      i++;
    }
    out.push({ text, openLeft, openRight: false });
  }

  function regex() {
    let j = i + 1;
    let inClass = false;
    while (j < n && src[j] !== '\n') {
      const c = src[j];
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
      j++;
    }
    j++;
    while (j < n && /[a-z]/.test(src[j])) j++;
    i = j;
  }

  code(false);
  return out;
}

const kebab = (s) => s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/**
 * @typedef {{ tags: Set<string>, classes: Set<string>, classPrefixes: Set<string>, classSuffixes: Set<string>,
 *   attributes: Set<string>, values: Set<string>, words: Set<string> }} Usage
 * `values` holds possible attribute values: whole string literals (`type="date"`, `'switch'`),
 * every token of a template literal with interpolations, and values of markup inside strings.
 */

/** An empty usage set, filled by `addSource`/`addThirdParty`. @returns {Usage} */
export function emptyUsage() {
  return {
    tags: new Set(DOCUMENT_TAGS),
    classes: new Set(),
    classPrefixes: new Set(),
    classSuffixes: new Set(),
    attributes: new Set(['class', 'id', 'style']),
    values: new Set(RENDERED_VALUES),
    words: new Set(),
  };
}

/**
 * Adds what one source file of the console can render.
 * - elements: `<tag` (JSX and HTML), `createElement('tag')`/`createElementNS(ns, 'tag')`, and any
 *   string literal that is a single lowercase word (a tag chosen at run time, `as="h3"`);
 * - classes: every identifier-like token inside a string or template literal (template parts
 *   next to an interpolation, and strings ending in `-`, also count as prefixes/suffixes);
 * - attribute values: see `Usage`;
 * - attribute names: every identifier-like token of the file, code included (JSX attributes,
 *   object keys spread as props, setAttribute arguments), plus `dataset.fooBar` as `data-foo-bar`.
 * @param {Usage} usage
 * @param {string} text
 * @param {string} [file] decides between markup (.html) and script
 */
export function addSource(usage, text, file = '') {
  if (/\.html?$/.test(file)) {
    for (const m of text.matchAll(/<([A-Za-z][A-Za-z0-9-]*)/g)) usage.tags.add(m[1].toLowerCase());
    for (const m of text.matchAll(/\s([A-Za-z_:][\w:.-]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      usage.attributes.add(m[1].toLowerCase());
      if (m[2]) addTokens(usage, { text: m[2].replace(/^["']|["']$/g, ''), openLeft: false, openRight: false });
    }
    return;
  }
  for (const m of text.matchAll(/<([a-z][a-z0-9-]*)/g)) usage.tags.add(m[1]);
  for (const m of text.matchAll(/createElement(?:NS)?\(\s*(?:[^,()]+,\s*)?['"`]([A-Za-z][\w-]*)['"`]/g)) usage.tags.add(m[1].toLowerCase());
  for (const m of text.matchAll(/\bdataset\.([A-Za-z_$][\w$]*)/g)) usage.attributes.add('data-' + kebab(m[1]));
  for (const m of text.matchAll(TOKEN)) usage.attributes.add(m[0].toLowerCase());
  for (const part of stringLiterals(text)) {
    addTokens(usage, part);
    if (!part.openLeft && !part.openRight && /^[a-z][a-z0-9]*$/.test(part.text)) usage.tags.add(part.text);
    // Markup held in a string (HTML handed to a library): its attributes and their values.
    if (/<[A-Za-z]/.test(part.text)) addSource(usage, part.text, 'string.html');
  }
}

/** @param {Usage} usage @param {{ text: string, openLeft: boolean, openRight: boolean }} part */
function addTokens(usage, part) {
  const tokens = part.text.match(TOKEN) ?? [];
  for (const token of tokens) {
    usage.classes.add(token);
    usage.words.add(token);
    if (part.openLeft || part.openRight) usage.values.add(token.toLowerCase());
  }
  usage.values.add(part.text.trim().toLowerCase());
  // `'btn-' + kind`, `tag-${kind}`, `${size}-wide`: a class only partly written in the source.
  const first = tokens[0];
  const lastToken = tokens[tokens.length - 1];
  if (lastToken && (part.openRight || /[-_]$/.test(part.text)) && part.text.endsWith(lastToken)) usage.classPrefixes.add(lastToken);
  if (first && (part.openLeft || /^[-_]/.test(part.text)) && part.text.startsWith(first)) usage.classSuffixes.add(first);
}

/**
 * Adds third-party code that builds DOM (charts, the flow editor): every identifier-like token of
 * its string literals counts as a possible element, class and attribute value, and every token
 * of the whole text as a possible attribute name.
 * @param {Usage} usage @param {string} text
 */
export function addThirdParty(usage, text) {
  for (const m of text.matchAll(TOKEN)) usage.attributes.add(m[0].toLowerCase());
  for (const part of stringLiterals(text)) {
    for (const token of part.text.match(TOKEN) ?? []) {
      usage.tags.add(token.toLowerCase());
      usage.classes.add(token);
      usage.values.add(token.toLowerCase());
      usage.words.add(token);
    }
    if (/<[A-Za-z]/.test(part.text)) addSource(usage, part.text, 'string.html');
  }
}

/** @param {Usage} usage @param {string} name */
function hasClass(usage, name) {
  if (usage.classes.has(name)) return true;
  for (const p of usage.classPrefixes) if (name.startsWith(p)) return true;
  for (const s of usage.classSuffixes) if (name.endsWith(s)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// CSS parsing

/** Removes comments, leaving strings (which may contain slash-star) alone. @param {string} css */
export function stripComments(css) {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '\\') {
      out += css.slice(i, i + 2);
      i += 2;
    } else if (c === '"' || c === "'") {
      const end = stringEnd(css, i);
      out += css.slice(i, end);
      i = end;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index after the string starting at `i` (a quote). */
function stringEnd(css, i) {
  const q = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== q) j += css[j] === '\\' ? 2 : 1;
  return Math.min(j + 1, css.length);
}

/**
 * Index of the first of `stops` at nesting depth 0 from `i`, stepping over strings, escapes,
 * unquoted url(…) and (), [] pairs; -1 when none.
 */
function scanTo(css, i, stops) {
  let depth = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"' || c === "'") {
      i = stringEnd(css, i);
      continue;
    }
    if (depth === 0 && stops.includes(c)) return i;
    if ((c === 'u' || c === 'U') && /^url\(\s*[^\s"')]/i.test(css.slice(i, i + 6)) && !IDENT_CHAR.test(css[i - 1] ?? '')) {
      const end = css.indexOf(')', i + 4);
      i = end < 0 ? css.length : end + 1;
      continue;
    }
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    i++;
  }
  return -1;
}

/** Index of the `}` matching the `{` at `open`, stepping over strings, escapes, url(…) and nested blocks. */
function blockEnd(css, open) {
  let i = open + 1;
  let depth = 1;
  while (i < css.length) {
    const at = scanTo(css, i, ['{', '}']);
    if (at < 0) break;
    if (css[at] === '{') depth++;
    else if (--depth === 0) return at;
    i = at + 1;
  }
  throw new Error(`css-purge: unclosed block at offset ${open}`);
}

/**
 * @typedef {{ type: 'rule', selectors: string, body: string }
 *   | { type: 'at', name: string, prelude: string, rules: Node[] | null, body: string | null }} Node
 */

/**
 * Parses a stylesheet (comments removed first) into rules and at-rules. Group at-rules
 * (@media, @supports, @layer, @container …) hold parsed rules; other blocks (@keyframes,
 * @font-face …) keep their text. @param {string} css @returns {Node[]}
 */
export function parseCss(css) {
  return parseList(stripComments(css));
}

function parseList(css) {
  /** @type {Node[]} */
  const nodes = [];
  let i = 0;
  while (i < css.length) {
    while (i < css.length && /\s/.test(css[i])) i++;
    if (i >= css.length) break;
    if (css[i] === '}') throw new Error(`css-purge: unexpected } at offset ${i}`);
    if (css[i] === '@') {
      let j = i + 1;
      while (j < css.length && IDENT_CHAR.test(css[j])) j++;
      const name = css.slice(i + 1, j);
      const stop = scanTo(css, j, ['{', ';', '}']);
      if (stop < 0 || css[stop] === ';' || css[stop] === '}') {
        const end = stop < 0 ? css.length : stop;
        nodes.push({ type: 'at', name, prelude: css.slice(j, end).trim(), rules: null, body: null });
        i = css[stop] === ';' ? end + 1 : end;
        if (css[stop] === '}') throw new Error(`css-purge: unexpected } at offset ${stop}`);
        continue;
      }
      const close = blockEnd(css, stop);
      const inner = css.slice(stop + 1, close);
      const group = GROUP_RULES.has(name.toLowerCase());
      nodes.push({ type: 'at', name, prelude: css.slice(j, stop).trim(), rules: group ? parseList(inner) : null, body: group ? null : inner });
      i = close + 1;
      continue;
    }
    const open = scanTo(css, i, ['{', '}', ';']);
    if (open < 0 || css[open] !== '{') throw new Error(`css-purge: a rule without a block at offset ${i}`);
    const close = blockEnd(css, open);
    nodes.push({ type: 'rule', selectors: css.slice(i, open).trim(), body: css.slice(open + 1, close) });
    i = close + 1;
  }
  return nodes;
}

/** Writes nodes back as compact CSS. @param {Node[]} nodes @returns {string} */
export function serialize(nodes) {
  return nodes.map((node) => {
    if (node.type === 'rule') return `${node.selectors}{${node.body.trim()}}`;
    const head = `@${node.name}${node.prelude ? ' ' + node.prelude : ''}`;
    if (node.rules) return `${head}{${serialize(node.rules)}}`;
    if (node.body !== null) return `${head}{${node.body.trim()}}`;
    return `${head};`;
  }).join('\n');
}

/** Splits a selector list at its top-level commas. @param {string} list @returns {string[]} */
export function splitSelectors(list) {
  const parts = [];
  let i = 0;
  while (i <= list.length) {
    const at = scanTo(list, i, [',']);
    const end = at < 0 ? list.length : at;
    const part = list.slice(i, end).trim();
    if (part) parts.push(part);
    i = end + 1;
  }
  return parts;
}

// ---------------------------------------------------------------------------------------------
// Selector matching

/** Reads a CSS identifier at `i` (escapes decoded); returns [name, next index]. */
function readIdent(s, i) {
  let name = '';
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(s.slice(i + 1, i + 8));
      if (hex) {
        name += String.fromCodePoint(parseInt(hex[0].trim(), 16));
        i += 1 + hex[0].length;
      } else {
        name += s[i + 1] ?? '';
        i += 2;
      }
      continue;
    }
    if (!IDENT_CHAR.test(c)) break;
    name += c;
    i++;
  }
  return [name, i];
}

/** Index after the bracket/paren group opening at `i`. */
function groupEnd(s, i) {
  const close = s[i] === '(' ? ')' : ']';
  const at = scanTo(s, i + 1, [close]);
  return at < 0 ? s.length : at + 1;
}

/** Value of an attribute selector's body, e.g. `type="date" i` → { name, op, value }. */
function parseAttribute(body) {
  const m = /^\s*(?:[\w-]*\|)?((?:[^\s~|^$*=\\]|\\.)+)\s*(?:([~|^$*]?=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|(?:[^\s\\]|\\.)+)\s*([iIsS])?)?\s*$/.exec(body);
  if (!m) return null;
  let value = m[3];
  if (value !== undefined) {
    if (/^["']/.test(value)) value = value.slice(1, -1);
    value = readIdent(value, 0)[1] === value.length ? readIdent(value, 0)[0] : value.replace(/\\(.)/g, '$1');
  }
  return { name: readIdent(m[1], 0)[0].toLowerCase(), op: m[2], value };
}

/**
 * Whether a complex selector can match some element the usage describes. It answers false only
 * when a simple selector outside :not()/:has()/… names an element, class or attribute (value)
 * that never occurs, or an :is()/:where() list of which no entry can match.
 * @param {string} selector @param {Usage} usage @returns {boolean}
 */
export function canMatch(selector, usage) {
  const s = selector;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/[\s>+~*&|]/.test(c) || c === ',') {
      i++;
      continue;
    }
    if (c === '.') {
      const [name, next] = readIdent(s, i + 1);
      if (name && !hasClass(usage, name)) return false;
      i = next;
      continue;
    }
    if (c === '#') {
      i = readIdent(s, i + 1)[1];
      continue;
    }
    if (c === '[') {
      const end = groupEnd(s, i);
      const attr = parseAttribute(s.slice(i + 1, end - 1));
      if (attr && !hasAttribute(usage, attr)) return false;
      i = end;
      continue;
    }
    if (c === ':') {
      const element = s[i + 1] === ':';
      const [name, next] = readIdent(s, i + (element ? 2 : 1));
      i = next;
      if (!element && NEVER_IN_DOCUMENT.has(name.toLowerCase())) return false;
      if (s[i] === '(') {
        const end = groupEnd(s, i);
        if (!element && MATCHES_ANY.has(name.toLowerCase())) {
          const options = splitSelectors(s.slice(i + 1, end - 1));
          if (options.length && !options.some((option) => canMatch(option, usage))) return false;
        }
        i = end;
      }
      continue;
    }
    if (IDENT_CHAR.test(c) || c === '\\') {
      const [name, next] = readIdent(s, i);
      i = next;
      if (s[i] === '|' && s[i + 1] !== '=') continue; // a namespace prefix
      if (name && !usage.tags.has(name.toLowerCase())) return false;
      continue;
    }
    // Anything else (a stray character): keep the selector.
    return true;
  }
  return true;
}

/** @param {Usage} usage @param {{ name: string, op?: string, value?: string }} attr */
function hasAttribute(usage, attr) {
  if (!usage.attributes.has(attr.name)) return false;
  if ((attr.op === '=' || attr.op === '~=') && attr.value !== undefined && /^-?[A-Za-z_][\w-]*$/.test(attr.value)) {
    return usage.values.has(attr.value.toLowerCase());
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Purging

/** A selector of the root element alone (`:root`, `:root:not([data-theme=dark])`): theme variables. */
const ROOT_ONLY = /^:root(?:[:[][^\s>+~]*)?$/i;

/** Whether a rule's selector stays for `usage` (theme variables and `keep` patterns always do). */
function stays(sel, usage, keep) {
  return ROOT_ONLY.test(sel) || keep.some((re) => re.test(sel)) || canMatch(sel, usage);
}

/**
 * Removes what cannot match from `css`.
 * @param {string} css
 * @param {Usage} usage
 * @param {{ keep?: RegExp[], keyframesUsedElsewhere?: Iterable<string> }} [options]
 *   keep: selectors matching one of these stay whatever the usage says;
 *   keyframesUsedElsewhere: animation names referenced by other stylesheets or inline styles.
 * @returns {{ css: string, removedSelectors: string[], removedKeyframes: string[] }}
 */
export function purgeCss(css, usage, options = {}) {
  const { nodes, removedSelectors, removedKeyframes } = purgeNodes(parseCss(css), usage, options);
  return { css: serialize(nodes), removedSelectors, removedKeyframes };
}

/**
 * Splits stylesheets (given in cascade order) in two: the rules that can match the page shown
 * first (`first`, e.g. what the login page renders), and `later`, a stylesheet to add after them
 * that makes the cascade what the whole stylesheets give. `later` holds every rule `first` cannot
 * match and a copy of each first-page rule that comes after a rule of `later` it could compete
 * with: a declaration of the same property (family) at the same selector specificity, where only
 * their order decides, on an element both can match (the same element name or none, the same
 * pseudo-element). Added after, `later` keeps the original order wherever two rules compete:
 * rules in `later` keep their order among themselves, and a first-page rule that stays behind in
 * `first` follows no rule of `later` it competes with. Each sheet's `usage` purges what the whole
 * console cannot match, as `purgeCss` does (null keeps every rule). A selector list that may not be
 * shortened (see `purgeNodes`) moves whole. At-rules without rules inside (@keyframes, @font-face
 * …) stay in `first`. Nested rules are refused: their declarations are not read.
 * @param {{ css: string, usage: Usage | null }[]} sheets
 * @param {Usage} first
 * @param {{ keep?: RegExp[], keyframesUsedElsewhere?: Iterable<string> }} [options]
 * @returns {{ first: string[], later: string[], copied: number, removedSelectors: string[], removedKeyframes: string[] }}
 */
export function splitCss(sheets, first, options = {}) {
  const keep = options.keep ?? [];
  const removedSelectors = [];
  const removedKeyframes = [];
  /**
   * What the declarations in `later` so far set: property family, specificity and pseudo-element
   * → the element names they are for ('' for any element).
   */
  const inLater = new Map();
  let setsAll = false;
  let copied = 0;
  const signatures = (selectors, body) => {
    const families = declaredFamilies(body);
    return selectors.flatMap((sel) => {
      const spec = specificity(sel).join(',');
      const { tag, pseudo } = subjectOf(sel);
      return families.map((family) => ({ key: `${family}|${spec}|${pseudo}`, tag, all: family === 'all' }));
    });
  };
  const competes = (sigs) => setsAll || sigs.some((sig) => {
    if (sig.all) return inLater.size > 0;
    const tags = inLater.get(sig.key);
    return !!tags && (sig.tag === '' || tags.has('') || tags.has(sig.tag));
  });
  const addToLater = (sigs) => {
    for (const sig of sigs) {
      if (sig.all) setsAll = true;
      if (!inLater.has(sig.key)) inLater.set(sig.key, new Set());
      inLater.get(sig.key).add(sig.tag);
    }
  };
  /** @param {Node[]} nodes @returns {[Node[], Node[]]} */
  const split = (nodes) => {
    const early = [];
    const late = [];
    for (const node of nodes) {
      if (node.type === 'rule') {
        if (scanTo(node.body, 0, ['{', '}']) >= 0) throw new Error(`css split: nested rules are not supported (${node.selectors})`);
        const selectors = splitSelectors(node.selectors);
        const now = selectors.filter((sel) => stays(sel, first, keep));
        if (/:-[a-z]+-/i.test(node.selectors) && now.length && now.length < selectors.length) {
          // Not to be shortened: whole in both parts.
          early.push(node);
          late.push(node);
          addToLater(signatures(selectors, node.body));
          copied += now.length;
          continue;
        }
        if (now.length) early.push(now.length === selectors.length ? node : { ...node, selectors: now.join(',') });
        const copies = now.filter((sel) => competes(signatures([sel], node.body)));
        const moved = selectors.filter((sel) => !now.includes(sel) || copies.includes(sel));
        if (moved.length) {
          late.push(moved.length === selectors.length ? node : { ...node, selectors: moved.join(',') });
          addToLater(signatures(moved, node.body));
          copied += copies.length;
        }
        continue;
      }
      if (node.rules) {
        const [a, b] = split(node.rules);
        if (a.length || /^layer$/i.test(node.name)) early.push({ ...node, rules: a });
        if (b.length) late.push({ ...node, rules: b });
        continue;
      }
      early.push(node);
    }
    return [early, late];
  };
  const firstParts = [];
  const laterParts = [];
  for (const sheet of sheets) {
    let nodes = parseCss(sheet.css);
    if (sheet.usage) {
      const purged = purgeNodes(nodes, sheet.usage, options);
      nodes = purged.nodes;
      removedSelectors.push(...purged.removedSelectors);
      removedKeyframes.push(...purged.removedKeyframes);
    }
    const [a, b] = split(nodes);
    firstParts.push(serialize(a));
    laterParts.push(serialize(b));
  }
  return { first: firstParts, later: laterParts, copied, removedSelectors, removedKeyframes };
}

/**
 * Properties that set one another (shorthands and their parts, logical and physical sides,
 * aliases) share a family; a family is the property's first word without a vendor prefix, merged
 * as below. Erring towards one family only copies a rule more.
 */
const FAMILY_OF_WORD = new Map(Object.entries({
  right: 'inset', left: 'inset', top: 'inset', bottom: 'inset',
  line: 'font',
  row: 'gap', column: 'gap', columns: 'gap', grid: 'gap',
  align: 'place', justify: 'place',
  width: 'size', height: 'size', inline: 'size', block: 'size', min: 'size', max: 'size', aspect: 'size', contain: 'size',
  white: 'text', word: 'text', overflow: 'text', hyphens: 'text', letter: 'text', tab: 'text',
  mask: 'background',
}));

/** The property families a declaration block sets; `all` when it sets `all`. @param {string} body @returns {string[]} */
function declaredFamilies(body) {
  const families = new Set();
  let i = 0;
  while (i < body.length) {
    const end = scanTo(body, i, [';']);
    const declaration = body.slice(i, end < 0 ? body.length : end);
    i = end < 0 ? body.length : end + 1;
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    if (!property) continue;
    if (property.startsWith('--')) {
      families.add(property);
      continue;
    }
    const word = property.replace(/^-(?:webkit|moz|ms|o)-/, '').split('-')[0];
    families.add(FAMILY_OF_WORD.get(word) ?? word);
  }
  return [...families];
}

/**
 * The element a complex selector styles, as far as its last compound says: the element name ('' when
 * it names none, or only through :is() and the like) and the pseudo-element ('' for the element itself).
 * @param {string} selector @returns {{ tag: string, pseudo: string }}
 */
export function subjectOf(selector) {
  const s = selector.trim();
  // Start of the last compound: after the last combinator outside brackets and parentheses.
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') i = groupEnd(s, i) - 1;
    else if (c === '"' || c === "'") i = stringEnd(s, i) - 1;
    else if (/[\s>+~]/.test(c)) start = i + 1;
  }
  const compound = s.slice(start);
  let tag = '';
  if (IDENT_CHAR.test(compound[0] ?? '') || compound[0] === '\\') {
    const [name, next] = readIdent(compound, 0);
    tag = compound[next] === '|' ? '' : name.toLowerCase();
  }
  const pseudo = /::?(before|after|first-line|first-letter)\b|::([\w-]+)/i.exec(compound);
  return { tag, pseudo: pseudo ? (pseudo[1] ?? pseudo[2]).toLowerCase() : '' };
}

/**
 * The specificity of a complex selector as [ids, classes/attributes/pseudo-classes, elements/
 * pseudo-elements]: :where() counts nothing, :is()/:not()/:has() their most specific argument.
 * @param {string} selector @returns {[number, number, number]}
 */
export function specificity(selector) {
  const s = selector;
  const total = [0, 0, 0];
  const add = (v) => {
    total[0] += v[0];
    total[1] += v[1];
    total[2] += v[2];
  };
  const most = (list) => splitSelectors(list).map(specificity).reduce((m, v) => (v[0] - m[0] || v[1] - m[1] || v[2] - m[2]) > 0 ? v : m, [0, 0, 0]);
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/[\s>+~*,|&]/.test(c)) {
      i++;
      continue;
    }
    if (c === '#' || c === '.') {
      total[c === '#' ? 0 : 1]++;
      i = readIdent(s, i + 1)[1];
      continue;
    }
    if (c === '[') {
      total[1]++;
      i = groupEnd(s, i);
      continue;
    }
    if (c === ':') {
      const element = s[i + 1] === ':';
      const [name, next] = readIdent(s, i + (element ? 2 : 1));
      i = next;
      const lower = name.toLowerCase();
      let args = null;
      if (s[i] === '(') {
        const end = groupEnd(s, i);
        args = s.slice(i + 1, end - 1);
        i = end;
      }
      if (element || ['before', 'after', 'first-line', 'first-letter'].includes(lower)) total[2]++;
      else if (lower === 'where') continue;
      else if (MATCHES_ANY.has(lower) || lower === 'not') {
        if (args !== null) add(most(args));
      } else if (/^nth-(last-)?child$/.test(lower) && args !== null && /\sof\s/i.test(args)) {
        total[1]++;
        add(most(args.split(/\sof\s/i)[1]));
      } else total[1]++;
      continue;
    }
    if (IDENT_CHAR.test(c) || c === '\\') {
      const [, next] = readIdent(s, i);
      i = next;
      if (s[i] === '|' && s[i + 1] !== '=') continue; // a namespace prefix
      total[2]++;
      continue;
    }
    i++;
  }
  return total;
}

/** @param {Node[]} parsed @param {Usage} usage @param {{ keep?: RegExp[], keyframesUsedElsewhere?: Iterable<string> }} options */
function purgeNodes(parsed, usage, options) {
  const keep = options.keep ?? [];
  const removedSelectors = [];
  const removedKeyframes = [];

  /** @param {Node[]} nodes @returns {Node[]} */
  function purgeList(nodes) {
    const kept = [];
    for (const node of nodes) {
      if (node.type === 'rule') {
        if (scanTo(node.body, 0, ['{', '}']) >= 0) {
          kept.push(node); // nested rules: not understood, kept
          continue;
        }
        const selectors = splitSelectors(node.selectors);
        const alive = selectors.filter((sel) => stays(sel, usage, keep));
        if (alive.length === 0) {
          removedSelectors.push(...selectors);
          continue;
        }
        // A list holding a vendor pseudo (invalid, and so dropping the whole rule, in other
        // engines) is not shortened: removing an entry could make the rule start to apply.
        if (alive.length < selectors.length && !/:-[a-z]+-/i.test(node.selectors)) {
          removedSelectors.push(...selectors.filter((sel) => !alive.includes(sel)));
          kept.push({ ...node, selectors: alive.join(',') });
        } else kept.push(node);
        continue;
      }
      if (node.rules) {
        const rules = purgeList(node.rules);
        if (rules.length || /^layer$/i.test(node.name)) kept.push({ ...node, rules });
        continue;
      }
      kept.push(node);
    }
    return kept;
  }

  let nodes = purgeList(parsed);
  // Keyframes stay when a kept rule, another stylesheet or a source string names them.
  const referenced = new Set(options.keyframesUsedElsewhere ?? []);
  for (const word of usage.words) referenced.add(word);
  const collect = (list) => {
    for (const node of list) {
      const body = node.type === 'rule' ? node.body : node.rules ? null : /keyframes$/i.test(node.name) ? null : node.body;
      if (node.type === 'at' && node.rules) collect(node.rules);
      if (body) for (const m of body.matchAll(/animation(?:-name)?\s*:([^;]*)/gi)) for (const t of m[1].match(TOKEN) ?? []) referenced.add(t);
    }
  };
  collect(nodes);
  const dropKeyframes = (list) => list.filter((node) => {
    if (node.type === 'at' && node.rules) {
      node.rules = dropKeyframes(node.rules);
      return node.rules.length > 0 || /^layer$/i.test(node.name);
    }
    if (node.type === 'at' && /keyframes$/i.test(node.name) && node.body !== null) {
      const name = node.prelude.replace(/^["']|["']$/g, '');
      if (!referenced.has(name)) {
        removedKeyframes.push(name);
        return false;
      }
    }
    return true;
  });
  nodes = dropKeyframes(nodes);
  return { nodes, removedSelectors, removedKeyframes };
}
