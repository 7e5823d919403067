/** The API key screen: the declaration rendered by the kit, then the new secret in a drawer. */
import { useMemo, useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { declareApiKeys, type CreatedKey } from './apiKeys.tsx';
import { SecretResult } from './SecretResult.tsx';

export default function ApiKeysPage() {
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const decl = useMemo(() => declareApiKeys(setCreated), []);
  return (
    <>
      <ResourcePage decl={decl} />
      {created && (
        <Drawer title={t('apiKeys.resultTitle')} onClose={() => setCreated(null)} test="api-key-result-drawer">
          <SecretResult created={created} onClose={() => setCreated(null)} />
        </Drawer>
      )}
    </>
  );
}
