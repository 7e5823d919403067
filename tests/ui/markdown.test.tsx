import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { safeUrl } from '../../web/lib/markdown.ts';
import { Markdown } from '../../web/ui/Markdown.tsx';
import { cleanup, mount } from '../helpers/render.tsx';

const README = [
  '# My plugin', '', '## Install ##', '', 'Counts **messages** per `topic`, *quietly*,', 'in two lines.', '',
  '```erlang', '{ok, Pid} = start().', '<b>kept</b>', '```', '',
  '    make rel', '    make test', '',
  '- one', '- two', '  - two a', '  - two b', '- three', '',
  '3. third', '4. fourth', '',
  '> Note: **restart** the node.', '', '---', '',
  'See [the docs](https://example.com/docs "Docs"), <https://example.com/auto>, [a file](docs/CONFIG.md), [up](#install) and [mail](mailto:ops@example.com).', '',
  '![logo](https://example.com/logo.png)', '',
  '| Key | Default |', '|:----|--------:|', '| `port` | 1883 |', '| host | *any* |', '',
  '### Last',
].join('\n');

const all = (root: Element, selector: string) => [...root.querySelectorAll(selector)];

test('a README becomes the elements its constructs mean', async () => {
  const root = await mount(<Markdown text={README} test="md" />);
  const md = root.querySelector('[data-test=md]')!;
  assert.equal(all(md, ':scope > *').map((e) => e.tagName), ['H1', 'H2', 'P', 'PRE', 'PRE', 'UL', 'OL', 'BLOCKQUOTE', 'HR', 'P', 'P', 'TABLE', 'H3']);
  assert.is(md.querySelector('h2')!.textContent, 'Install');
  const intro = md.querySelector('p')!;
  assert.is(intro.querySelector('strong')!.textContent, 'messages');
  assert.is(intro.querySelector('code')!.textContent, 'topic');
  assert.is(intro.querySelector('em')!.textContent, 'quietly');
  assert.match(intro.textContent!, /quietly\*?,\nin two lines\.$/);
  const [fenced, indented] = all(md, ':scope > pre');
  assert.is(fenced!.querySelector('code')!.textContent, '{ok, Pid} = start().\n<b>kept</b>');
  assert.is(indented!.textContent, 'make rel\nmake test');
  const ul = md.querySelector(':scope > ul')!;
  assert.equal(all(ul, ':scope > li').map((li) => li.firstChild!.textContent), ['one', 'two', 'three']);
  assert.equal(all(ul, ':scope > li > ul > li').map((li) => li.textContent), ['two a', 'two b']);
  assert.is(ul.querySelector('p'), null, 'a tight list has no paragraphs');
  const ol = md.querySelector('ol')!;
  assert.is(ol.getAttribute('start'), '3');
  assert.equal(all(ol, 'li').map((li) => li.textContent), ['third', 'fourth']);
  assert.is(md.querySelector('blockquote > p > strong')!.textContent, 'restart');
  const links = all(md, 'a').map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]);
  assert.equal(links, [
    ['the docs', 'https://example.com/docs', '_blank', 'noopener noreferrer'],
    ['https://example.com/auto', 'https://example.com/auto', '_blank', 'noopener noreferrer'],
    ['a file', 'docs/CONFIG.md', '_blank', 'noopener noreferrer'],
    ['up', '#install', '_blank', 'noopener noreferrer'],
    ['mail', 'mailto:ops@example.com', '_blank', 'noopener noreferrer'],
    ['logo', 'https://example.com/logo.png', '_blank', 'noopener noreferrer'],
  ]);
  assert.is(md.querySelector('img'), null, 'an image is a link, never loaded');
  assert.equal(all(md, 'th').map((th) => [th.textContent, th.getAttribute('data-align')]), [['Key', 'left'], ['Default', 'right']]);
  assert.equal(all(md, 'tbody tr').map((tr) => all(tr, 'td').map((td) => td.innerHTML)), [['<code>port</code>', '1883'], ['host', '<em>any</em>']]);
});

const HOSTILE = [
  '<script>window.pwned = 1</script>', '', '<img src=x onerror="window.pwned = 2"> <iframe src="javascript:alert(3)"></iframe>', '',
  '<a href="javascript:alert(4)" onclick="alert(5)">raw link</a>', '',
  '[a](javascript:alert(6)) [b](JaVaScRiPt:alert(7)) [c]( javascript:alert(8)) [d](<java script:alert(9)>) [e](java\tscript:alert(10))',
  '[f](vbscript:msgbox(11)) [g](data:text/html;base64,PHNjcmlwdD4=) [h](\u0001javascript:alert(12)) [i](java\u0000script:alert(13))',
  '[j](<javascript:alert(14)>) <javascript:alert(15)> <VBScript:x> [k](javascript&colon;alert(16)) [l](&#106;avascript:alert(17))',
  '![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+) ![m](javascript:alert(18)) [**n**](jAvAsCrIpT:alert(19))',
  '', '[ok](https://example.com/ok)',
].join('\n');

test('a hostile README builds no script, image, frame, handler or script URL; its raw HTML and bad links stay text', async () => {
  const root = await mount(<Markdown text={HOSTILE} test="md" />);
  const md = root.querySelector('[data-test=md]')!;
  assert.is(md.querySelectorAll('script, img, iframe, svg, object, embed, b').length, 0);
  for (const el of all(md, '*')) {
    assert.equal(el.getAttributeNames().filter((n) => /^on|^style$|^src/i.test(n)), [], el.outerHTML);
  }
  const hrefs = all(md, 'a').map((a) => a.getAttribute('href')!);
  for (const href of hrefs) assert.ok(['http:', 'https:', 'mailto:'].includes(new URL(href, 'https://console.example/').protocol), href);
  assert.equal(all(md, 'a').map((a) => a.textContent), ['k', 'l', 'ok'], 'only the harmless relative links and the https one are links');
  assert.ok(md.textContent!.includes('<script>window.pwned = 1</script>'));
  assert.ok(md.textContent!.includes('<a href="javascript:alert(4)" onclick="alert(5)">raw link</a>'));
  assert.ok(md.textContent!.includes('[b](JaVaScRiPt:alert(7))'), 'a refused link shows as its source');
  assert.ok(md.textContent!.includes('![pixel](data:image/svg+xml;base64,'));
});

test('link targets: web, mail and relative pass; every other scheme and any control or space fails', () => {
  for (const ok of ['https://a.io', 'HTTP://a.io', 'mailto:a@b.io', 'docs/x.md', '../x', '#top', '/abs', '?q=1', '//cdn.example/x', 'a/b:c']) assert.ok(safeUrl(ok), ok);
  for (const bad of ['javascript:x', 'JAVASCRIPT:x', 'vbscript:x', 'data:text/html,x', 'file:///etc/passwd', 'java\tscript:x', ' javascript:x', '\u0000javascript:x', 'java\nscript:x', 'java\u0085script:x', 'blob:https://a', '']) assert.not.ok(safeUrl(bad), JSON.stringify(bad));
});

test.after(cleanup);
test.run();
