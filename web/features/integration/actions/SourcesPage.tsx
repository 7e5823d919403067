/** Integration > Sources: the shared bridge list declaration for `/sources`. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { bridgeDecl } from './bridgeList.tsx';

const decl = bridgeDecl('sources');

export default function SourcesPage() {
  return <ResourcePage decl={decl} />;
}
