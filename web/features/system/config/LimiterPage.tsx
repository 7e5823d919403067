/** Limiter settings: the node-wide connection, message and byte rates. */
import { ConfigPage } from '../../../ui/ConfigPage.tsx';
import { limiterPage } from './pages.ts';

export default function LimiterPage() {
  return <ConfigPage decl={limiterPage} />;
}
