/**
 * The client's connection and session facts and its counters (bytes, packets, received and sent
 * messages with their QoS and dropped variants), as EMQX reports them in `GET /clients/{clientid}`.
 */
import { formatDateTime, formatDuration, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { Descriptions, type DescriptionItem } from '../../../ui/Descriptions.tsx';
import { MetricsPanel, type MetricGroup } from '../../../ui/MetricsPanel.tsx';
import { protocol, type Client } from './clients.ts';

/** MQTT 5's "never expires" session expiry interval (0xFFFFFFFF seconds). */
const NEVER = 4294967295;

const COUNTERS: MetricGroup[] = [
  { title: 'clients.bytes', prefixes: ['recv_oct', 'send_oct'] },
  { title: 'clients.packets', prefixes: ['recv_pkt', 'send_pkt', 'recv_cnt', 'send_cnt'] },
  { title: 'clients.received', prefixes: ['recv_msg'] },
  { title: 'clients.sent', prefixes: ['send_msg'] },
];

const num = (value: unknown) => (typeof value === 'number' ? formatNumber(value) : '');
/** `used / max`, where max may be EMQX's `"infinity"`. */
function ratio(used: unknown, max: unknown) {
  if (used === undefined && max === undefined) return '';
  return `${num(used)} / ${max === 'infinity' ? t('clients.infinity') : num(max)}`;
}

function expiry(seconds: unknown) {
  if (typeof seconds !== 'number') return '';
  if (seconds >= NEVER) return t('clients.neverExpire');
  return seconds === 0 ? t('format.second', { n: 0 }) : formatDuration(seconds * 1000, 3);
}

export function ClientInfo({ client: c }: { client: Client }) {
  const listener = typeof c.listener === 'string' ? c.listener : '';
  const connection: DescriptionItem[] = [
    ['clients.clientid', c.clientid],
    ['clients.username', c.username],
    ['clients.ipAddress', c.ip_address],
    ['clients.port', c.port],
    ['clients.protocol', protocol(c)],
    ['clients.keepalive', c.keepalive],
    ['clients.cleanStart', c.clean_start],
    ['clients.node', c.node],
    ['clients.connectedAt', formatDateTime(c.connected_at)],
    ['clients.createdAt', formatDateTime(c.created_at)],
    ...(c.disconnected_at ? [['clients.disconnectedAt', formatDateTime(c.disconnected_at)] as DescriptionItem] : []),
    ['clients.isBridge', Boolean(c.is_bridge)],
    // EMQX names the listener `type:name`; ssl and wss are the TLS ones.
    ...(listener ? [['clients.listener', listener], ['clients.ssl', /^(ssl|wss):/.test(listener)]] as DescriptionItem[] : []),
    ...(typeof c.mountpoint === 'string' && c.mountpoint ? [['clients.mountpoint', c.mountpoint] as DescriptionItem] : []),
  ];
  const session: DescriptionItem[] = [
    ['clients.expiryInterval', expiry(c.expiry_interval)],
    ['clients.subscriptionsCnt', ratio(c.subscriptions_cnt, c.subscriptions_max)],
    ['clients.inflight', ratio(c.inflight_cnt, c.inflight_max)],
    // A queue without a length limit reports mqueue_max 0 (emqx_mqueue.erl MAX_LEN_INFINITY, v5.5.1).
    ['clients.mqueue', ratio(c.mqueue_len, c.mqueue_max === 0 ? 'infinity' : c.mqueue_max)],
    ['clients.mqueueDropped', num(c.mqueue_dropped)],
    ['clients.awaitingRel', ratio(c.awaiting_rel_cnt, c.awaiting_rel_max)],
    ['clients.heapSize', num(c.heap_size)],
    ['clients.reductions', num(c.reductions)],
    ['clients.mailboxLen', num(c.mailbox_len)],
  ];
  return (
    <>
      <h3 class="section-title">{t('clients.connectionInfo')}</h3>
      <Descriptions items={connection} test="client-connection" />
      <h3 class="section-title">{t('clients.sessionInfo')}</h3>
      <Descriptions items={session} test="client-session" />
      <h3 class="section-title">{t('clients.counters')}</h3>
      <MetricsPanel metrics={c} groups={COUNTERS} />
    </>
  );
}
