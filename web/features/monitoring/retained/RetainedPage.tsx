/** The Retained messages screen: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { retained } from './retained.tsx';

export default function RetainedPage() {
  return <ResourcePage decl={retained} />;
}
