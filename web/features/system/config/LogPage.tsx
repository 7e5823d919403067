/** Log settings: the console and file handlers (level, formatter, rotation, time offset). */
import { ConfigPage } from '../../../ui/ConfigPage.tsx';
import { logPage } from './pages.ts';

export default function LogPage() {
  return <ConfigPage decl={logPage} />;
}
