// Run by build/prerender.mjs in a child process, bundled: renders the console's login page with
// happy-dom once per language and prints the markup index.html carries (lib/bootForm.ts).
// The drawn forms are inert copies until the console replaces them: ids get a prefix of their
// language, test hooks go, the language select marks its option, and a form submits nowhere
// (`method="dialog"` outside a dialog is a no-op) so Enter cannot send the password in a URL.
// Each carries the notice the boot script shows if the console's modules fail to load.
import './dom-globals.ts';
import { render } from 'preact';
import '../web/lib/messages.ts';
import '../web/app/messages.ts';
import { Login } from '../web/app/Login.tsx';
import { BOOT_FAILED_CLASS, BOOT_FORM_CLASS } from '../web/lib/bootForm.ts';
import { setLocale, t, type Locale } from '../web/lib/i18n.ts';
import { settings } from '../web/lib/settings.ts';

const ID_REFS = ['for', 'aria-describedby', 'aria-labelledby', 'aria-controls'];

function draw(lang: Locale): string {
  setLocale(lang);
  settings.lang = lang;
  const host = document.createElement('div');
  render(<Login />, host);
  const prefix = `boot-${lang}-`;
  for (const el of host.querySelectorAll('[id]')) el.id = prefix + el.id;
  for (const attr of ID_REFS) {
    for (const el of host.querySelectorAll(`[${attr}]`)) el.setAttribute(attr, el.getAttribute(attr)!.split(/\s+/).map((id) => prefix + id).join(' '));
  }
  for (const el of host.querySelectorAll('[data-test]')) el.removeAttribute('data-test');
  for (const select of host.querySelectorAll('select')) {
    for (const option of select.options) option.toggleAttribute('selected', option.value === select.value);
  }
  for (const form of host.querySelectorAll('form')) form.setAttribute('method', 'dialog');
  // Typing can start at once: the browser focuses the username of the form shown (the other is hidden).
  host.querySelector('input[name=username]')!.setAttribute('autofocus', '');
  const failed = document.createElement('p');
  failed.className = `${BOOT_FAILED_CLASS} field-error`;
  failed.setAttribute('role', 'alert');
  failed.hidden = true;
  failed.textContent = t('login.consoleFailed');
  host.querySelector('.login-card')!.append(failed);
  const markup = host.innerHTML;
  render(null, host);
  if (!/type="password"/.test(markup)) throw new Error(`the ${lang} login form has no password input`);
  return `<div class="${BOOT_FORM_CLASS}" data-lang="${lang}">${markup}</div>`;
}

process.stdout.write(JSON.stringify([draw('en'), draw('zh')]));
process.exit(0);
