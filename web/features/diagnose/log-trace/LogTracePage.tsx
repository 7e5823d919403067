/** The Log trace screen: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { traces } from './traces.tsx';

export default function LogTracePage() {
  return <ResourcePage decl={traces} />;
}
