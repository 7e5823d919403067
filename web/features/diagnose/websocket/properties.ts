/**
 * MQTT 5 message properties of the test client (MQTT 5 §3.3.2.3): the publish form's properties as
 * mqtt.js takes them, their checks, and the properties of a sent or received message as label and
 * text pairs for the message lists. Values only ever become text, never markup.
 */
import { t } from '../../../lib/i18n.ts';
import { isEmpty, numberRange, requiredText, type Rule } from '../../../lib/validators.ts';
import { defined, NEVER_EXPIRE, optionalTopic } from './settings.ts';

export interface UserProperty {
  key: string;
  value: string;
}

/** The MQTT 5 fields of the publish form, named as mqtt.js names the properties. */
export interface PublishProps {
  contentType: string;
  messageExpiryInterval: number | '';
  topicAlias: number | '';
  responseTopic: string;
  correlationData: string;
  userProperties: UserProperty[];
}
export const V5_FIELDS = ['contentType', 'messageExpiryInterval', 'topicAlias', 'responseTopic', 'correlationData'] as const;
export const V5_NUMBERS: readonly string[] = ['messageExpiryInterval', 'topicAlias'];

/** Message properties as mqtt.js reads and writes them (a user property key may repeat, so its value may be a list). */
export type MessageProperties = Partial<Record<(typeof SHOWN)[number], unknown>>;

/** A user property row with a value but no key. */
export const keyMissing = (row: UserProperty) => !row.key && row.value !== '';

export const emptyPublishProps = (): PublishProps => ({
  contentType: '', messageExpiryInterval: '', topicAlias: '', responseTopic: '', correlationData: '', userProperties: [{ key: '', value: '' }],
});

/** Checks of the MQTT 5 publish fields; `aliasMax` is the Topic Alias Maximum of the broker's CONNACK. */
export function publishRules(aliasMax: number): Record<string, Rule[]> {
  return {
    messageExpiryInterval: [numberRange(0, NEVER_EXPIRE)],
    // No alias above the broker's maximum, which is 0 when CONNACK does not name one [MQTT-3.3.2-9].
    topicAlias: [aliasMax > 0 ? numberRange(1, aliasMax) : (v) => (isEmpty(v) ? undefined : t('websocket.noTopicAlias'))],
    // The Response Topic is a topic name: no wildcards [MQTT-3.3.2-14].
    responseTopic: [optionalTopic],
    // A value without a key (the row's key field is marked).
    userProperties: [(rows) => ((rows as UserProperty[]).some(keyMissing) ? requiredText('websocket.key') : undefined)],
  };
}

/** The publish form's properties for mqtt.js; rows without a key are left out, a repeated key sends every value. */
export function publishProperties(f: PublishProps): MessageProperties | undefined {
  const users: Record<string, string | string[]> = {};
  for (const { key, value } of f.userProperties) {
    if (key) users[key] = key in users ? [users[key]].flat().concat(value) : value;
  }
  const props: MessageProperties = { userProperties: Object.keys(users).length ? users : undefined };
  for (const name of V5_FIELDS) props[name] = f[name] === '' ? undefined : f[name];
  return defined(props);
}

/** The properties a message list shows, in this order; each is labelled `websocket.<name>`. */
const SHOWN = ['userProperties', ...V5_FIELDS, 'subscriptionIdentifier'] as const;
const decoder = new TextDecoder();

/** A message's properties as [name, text] pairs, or undefined when it has none. */
export function propertyPairs(p: MessageProperties | undefined): [string, string][] | undefined {
  if (!p) return undefined;
  const pairs: [string, string][] = [];
  for (const name of SHOWN) {
    const v = p[name];
    if (v !== undefined) pairs.push([name, v instanceof Uint8Array ? decoder.decode(v) : typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  }
  return pairs.length ? pairs : undefined;
}
