/** One listener's settings on the shared config page; saving asks first (it disconnects clients). */
import { ConfigPage } from '../../../ui/ConfigPage.tsx';
import { listenerPage } from './listeners.ts';

export default function ListenerDetail({ id }: { id: string }) {
  const decoded = decodeURIComponent(id);
  return <ConfigPage key={decoded} decl={listenerPage(decoded)} />;
}
