/** Listeners: the declaration in listeners.ts rendered by ResourcePage. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { listeners } from './listeners.ts';

export default function ListenersPage() {
  return <ResourcePage decl={listeners} />;
}
