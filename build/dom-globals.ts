// happy-dom's window as the globals, before the console's modules that read them load (first
// import of build/login-forms.tsx).
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1/', width: 1280, height: 800 });
