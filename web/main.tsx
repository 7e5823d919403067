/** Entry point: restores settings and session, then renders the console. */
import { render } from 'react-dom';
import '@picocss/pico/css/pico.min.css';
import './styles.css';
import './lib/messages.ts';
import './app/messages.ts';
import { setLocale } from './lib/i18n.ts';
import { applyTheme, settings } from './lib/settings.ts';
import { restoreSession, session } from './lib/session.ts';
import { dropBootForm } from './lib/bootForm.ts';
import { App } from './app/App.tsx';

// Development builds only: preact/debug warns about hooks misuse; removed from production.
if (process.env.NODE_ENV !== 'production') await import('preact/debug');
setLocale(settings.lang);
applyTheme();
await restoreSession();
// The login form drawn into index.html: the login page takes it over; logged in, it goes unseen.
if (session.token) dropBootForm();
render(<App />, document.getElementById('app')!);
