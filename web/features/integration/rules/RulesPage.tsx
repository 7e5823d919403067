/** The rule list: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { rules } from './rules.tsx';

export default function RulesPage() {
  return <ResourcePage decl={rules} />;
}
