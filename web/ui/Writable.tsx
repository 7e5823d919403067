/**
 * Controls that change the broker, disabled together for a read-only user (`canWrite`: an
 * Enterprise viewer). One `<fieldset disabled>` does it for every input, select, textarea and
 * button inside, so a screen does not pass the role to each control; the fieldset draws no box
 * (`display: contents`), so the layout is the same for every role.
 * Example: `<Writable><input …/><OutputsEditor …/></Writable>`.
 */
import type { ComponentChildren } from 'preact';
import { canWrite } from '../lib/broker.ts';
import { t } from '../lib/i18n.ts';

export function Writable(props: { children: ComponentChildren; test?: string; /** Every role may use these (one's own password). */ anyRole?: boolean }) {
  const readOnly = !props.anyRole && !canWrite();
  return (
    <fieldset class="writable" disabled={readOnly} title={readOnly ? t('common.readOnly') : undefined} data-test={props.test}>
      {props.children}
    </fieldset>
  );
}
