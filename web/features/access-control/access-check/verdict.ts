/**
 * The result of an access check as sentences: each step's reason code in words, with the source
 * the broker's trace named (for the built-in database, with the rule covering the request).
 */
import { t } from '../../../lib/i18n.ts';
import { reasonCodeLabel } from '../../../lib/reasonCodes.ts';
import { builtInRule, type CheckInput, type CheckResult, type StepResult } from './check.ts';
import './messages.ts';

export interface Sentence {
  ok: boolean;
  text: string;
  test: string;
}

const KNOWN = ['built_in_database', 'file', 'http', 'superuser'];

/** The words for an authorization source; the built-in database names its matching rule. */
async function sourceText(step: StepResult, input: CheckInput, decided: string): Promise<string> {
  const source = step.source ?? '';
  if (source === 'built_in_database') {
    const rule = await builtInRule(input, step.step as 'publish', input.topic).catch(() => undefined);
    if (rule?.permission === decided) {
      const who = rule.scope === 'all' ? t('common.all') : `${rule.scope} ${rule.scope === 'username' ? input.username : input.clientid}`;
      return t('accessCheck.rule', { rule: `${rule.permission} ${rule.action} ${rule.topic}`, who });
    }
  }
  if (source.includes('no_match')) return t('accessCheck.source.noMatch');
  return KNOWN.includes(source) ? t(`accessCheck.source.${source}`) : source || '?';
}

/** One sentence per step, and one for a DISCONNECT the broker sent. */
export async function sentences(result: CheckResult, input: CheckInput): Promise<Sentence[]> {
  const out: Sentence[] = [];
  for (const step of result.steps) {
    const title = t(`accessCheck.step.${step.step}`);
    const test = `access-check-${step.step}`;
    let text: string;
    if (step.code === undefined) text = t('accessCheck.refused', { step: title, reason: t('accessCheck.noAnswer') });
    else if (step.step === 'connect') {
      const source = step.source ?? t('accessCheck.source.none');
      text = step.ok ? t('accessCheck.connected', { source })
        : step.code === 0x86 ? t('accessCheck.authnFailed', { source }) : t('accessCheck.refused', { step: title, reason: reasonCodeLabel(step.code) });
    } else if (step.ok || step.code === 0x87) {
      text = t(step.ok ? 'accessCheck.allowed' : 'accessCheck.denied', { step: title, topic: input.topic, source: await sourceText(step, input, step.ok ? 'allow' : 'deny') });
    } else text = t('accessCheck.refused', { step: title, reason: reasonCodeLabel(step.code, step.step === 'subscribe' ? 'suback' : undefined) });
    out.push({ ok: step.ok, text, test });
  }
  if (result.disconnect) out.push({ ok: false, text: t('accessCheck.disconnected', { reason: reasonCodeLabel(result.disconnect, 'disconnect') }), test: 'access-check-disconnect' });
  return out;
}

/** The raw codes for Details: `connect 0x00 · publish 0x87`. */
export function rawCodes(result: CheckResult): string {
  const hex = (n?: number) => (n === undefined ? '—' : `0x${n.toString(16).padStart(2, '0').toUpperCase()}`);
  return [...result.steps.map((s) => `${s.step} ${hex(s.code)}`), ...(result.disconnect === undefined ? [] : [`disconnect ${hex(result.disconnect)}`])].join(' · ');
}
