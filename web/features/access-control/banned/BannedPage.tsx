/** The banned clients screen: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { banned } from './banned.tsx';

export default function BannedPage() {
  return <ResourcePage decl={banned} />;
}
