/**
 * What `POST /api_key` answered, shown once: the key and its secret with copy buttons and the
 * warning that the secret will not be shown again. The secret lives only in this drawer's props.
 */
import { useRef } from 'react';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.ts';
import type { CreatedKey } from './apiKeys.tsx';

/** Copies with the Clipboard API, or by selecting the field where it is missing (plain HTTP). */
async function copy(input: HTMLInputElement | null) {
  if (!input) return;
  try {
    if (navigator.clipboard?.writeText) await navigator.clipboard.writeText(input.value);
    else {
      input.select();
      if (!document.execCommand('copy')) throw new Error(t('common.operationFailed'));
    }
    toast(t('apiKeys.copied'));
  } catch (error) {
    handleError(error);
  }
}

function CopyField({ label, value, test }: { label: string; value: string; test: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <label>
      {t(label)}
      <span role="group">
        <input ref={input} type="text" readOnly value={value} data-test={test} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" class="secondary" data-test={`${test}-copy`} onClick={() => copy(input.current)}>{t('apiKeys.copy')}</button>
      </span>
    </label>
  );
}

export function SecretResult({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  return (
    <div class="secret-result" data-test="api-key-result">
      <p class="notice-warning" role="alert">{t('apiKeys.resultTip')}</p>
      <CopyField label="apiKeys.apiKey" value={created.api_key} test="api-key-key" />
      <CopyField label="apiKeys.secretKey" value={created.api_secret} test="api-key-secret" />
      <small class="muted">{t('apiKeys.usage')}</small>
      <div class="form-actions">
        <button type="button" data-test="api-key-result-close" onClick={onClose}>{t('common.close')}</button>
      </div>
    </div>
  );
}
