/**
 * Markdown from outside the console (a plugin's README) shown as elements, through markdown-to-jsx:
 * it builds elements, never HTML text, so nothing in the text can run. Raw HTML in it stays text
 * (`disableParsingRawHTML`), link targets pass the library's sanitizer (no `javascript:`,
 * `vbscript:` or `data:` URLs), links open apart from the console, and an image is a link to it:
 * the console's CSP loads images from itself only, and stays as it is.
 */
import { compiler, type MarkdownToJSX } from 'markdown-to-jsx';

const link = ({ href, children }: { href?: string; children?: unknown }) => (
  <a href={href} target="_blank" rel="noopener noreferrer">{children as string}</a>
);

const OPTIONS: MarkdownToJSX.Options = {
  disableParsingRawHTML: true,
  forceBlock: true,
  overrides: {
    a: link,
    img: ({ src, alt }: { src?: string; alt?: string }) => link({ href: src, children: alt || src }),
  },
};

export function Markdown({ text, test }: { text: string; test?: string }) {
  return <div class="markdown" data-test={test}>{compiler(text, OPTIONS)}</div>;
}
