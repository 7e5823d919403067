/** Integration > Actions (sinks): the shared bridge list declaration for `/actions`. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { bridgeDecl } from './bridgeList.tsx';

const decl = bridgeDecl('actions');

export default function ActionsPage() {
  return <ResourcePage decl={decl} />;
}
