/** The Users screen: the declaration rendered by the kit. */
import { ResourcePage } from '../../ui/ResourcePage.tsx';
import { users } from './users.ts';

export default function UsersPage() {
  return <ResourcePage decl={users} />;
}
