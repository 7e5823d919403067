/** The gateway list: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { gateways } from './gateways.tsx';

export default function GatewaysPage() {
  return <ResourcePage decl={gateways} />;
}
