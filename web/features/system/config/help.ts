/**
 * Help of every config page field (issue #18): a description in zh and en, keyed by schema path
 * (`<config root>.<field>`, e.g. `mqtt.max_packet_size`), the unit where the value has one beyond
 * its type, and the broker's default of hand-declared fields (schema fields carry theirs). Written
 * from the facts of the EMQX 5.5 config schema. Loaded lazily with the config pages, never with
 * the shell; it registers its texts under `configHelp.` and `configUnit.` when loaded.
 */
import { defineMessages, hasMessage, type Messages } from '../../../lib/i18n.ts';
import type { FieldHelp, HelpLookup } from '../../../ui/SchemaForm.tsx';
import { addHelpStyles } from './helpStyles.ts';

type Text = { zh: string; en: string };

/** One text in both languages (a call, so the dotted schema paths do not read as message keys). */
const h = (zh: string, en: string): Text => ({ zh, en });

const enable = (zh: string, en: string): Text => h(`开启后${zh}。`, `When on, ${en}.`);

// The limiter of 5.10 and later (emqx_limiter.erl, emqx_channel.erl check_quota_exceeded/2): what
// each limiter counts and what happens over it; `whose` says whose bucket it is.
const LIMITED: Record<string, { zh: string[]; en: string[] }> = {
  max_conn: { zh: ['新建连接', '超过时新连接被直接关闭', '连接数'], en: ['new connections', 'a connection over it is closed at once', 'connections'] },
  messages: { zh: ['发布消息', '超过时 QoS 1/2 消息收到 0x97（超出配额），QoS 0 消息被丢弃', '消息数'], en: ['messages published', 'over it a QoS 1/2 message is answered 0x97 (Quota Exceeded) and a QoS 0 one is dropped', 'messages'] },
  bytes: { zh: ['发布载荷字节', '超过时的处理同消息速率', '字节数'], en: ['payload bytes published', 'over it messages are refused as over the messages rate', 'bytes'] },
};
function limiterHelp(whose: (name: string) => Text): Record<string, Text> {
  const texts: Record<string, Text> = {};
  for (const [name, text] of Object.entries(LIMITED)) {
    const who = whose(name);
    texts[`${name}_rate`] = h(`${who.zh}${text.zh[0]}的最大速率；${text.zh[1]}。infinity 表示不限制。`, `Highest rate of ${text.en[0]} ${who.en}; ${text.en[1]}. infinity means no limit.`);
    texts[`${name}_burst`] = h(`速率用尽后每个时间窗口内额外允许的${text.zh[2]}；留空表示无突发。`, `Extra ${text.en[2]} allowed once per window after the rate is used up; empty means no burst.`);
  }
  return texts;
}

const mqtt: Record<string, Text> = {
  max_packet_size: h('客户端可发送的单个 MQTT 报文的最大大小，超过时连接被断开。', 'Largest single MQTT packet a client may send; a bigger one closes the connection.'),
  max_clientid_len: h('客户端 ID 的最大长度，更长的 ID 在连接时被拒绝。', 'Longest client ID accepted on CONNECT; longer IDs are refused.'),
  max_topic_levels: h('主题中以 / 分隔的最大层级数，更深的主题被拒绝。', 'Most "/"-separated levels a topic may have; deeper topics are refused.'),
  max_qos_allowed: h('客户端可使用的最高 QoS 等级（0、1 或 2）。', 'Highest QoS level (0, 1 or 2) clients may use.'),
  max_topic_alias: h('MQTT 5.0 客户端可使用的主题别名数量上限，0 表示不支持主题别名。', 'How many topic aliases an MQTT 5.0 client may use; 0 turns topic aliases off.'),
  idle_timeout: h('连接建立后等待 CONNECT 报文的时长，超时则断开；已连接的空闲连接在此时长后进入休眠以节省资源。', 'How long a new connection may wait before sending CONNECT; idle connected clients hibernate after it to save memory.'),
  retain_available: enable('支持 MQTT 保留消息', 'the broker supports MQTT retained messages'),
  wildcard_subscription: enable('允许订阅含 + 或 # 通配符的主题', 'clients may subscribe to topics with + or # wildcards'),
  shared_subscription: enable('支持 $share/ 共享订阅', 'clients may use $share/ shared subscriptions'),
  shared_subscription_strategy: h('共享订阅组内分发消息的方式，例如随机、轮询、粘性或按主题/客户端 ID 哈希。', 'How a shared group spreads messages among its members: random, round robin, sticky, or hashed by topic or client ID.'),
  exclusive_subscription: enable('支持 $exclusive/ 排他订阅，同一主题只允许一个订阅者', 'clients may use $exclusive/ subscriptions, one subscriber per topic'),
  ignore_loop_deliver: enable('MQTT 3.x 客户端不会收到自己发布的消息（类似 MQTT 5.0 的 No Local）', 'MQTT 3.x clients do not receive messages they published themselves (like No Local in MQTT 5.0)'),
  strict_mode: enable('严格检查报文格式与主题名是否符合协议', 'packets and topic names are checked strictly against the protocol'),
  response_information: h('返回给请求了响应信息的 MQTT 5.0 客户端的主题前缀，留空则不返回。', 'Topic prefix returned to MQTT 5.0 clients that ask for response information; empty sends none.'),
  server_keepalive: h('服务端指定的保活时间，覆盖 MQTT 5.0 客户端请求的值；disabled 表示沿用客户端的值。', 'Keep-alive the broker imposes on MQTT 5.0 clients instead of theirs; disabled keeps the client\'s value.'),
  keepalive_multiplier: h('保活超时 = 保活间隔 × 此倍数；超过后未收到报文则断开连接。', 'Keep-alive timeout = keep-alive interval × this factor; a silent client is disconnected after it.'),
  use_username_as_clientid: enable('用用户名代替客户端 ID（在认证之后）', 'the username replaces the client ID (after authentication)'),
  peer_cert_as_username: h('TLS 连接中用对端证书的 CN、DN 或整个证书作为用户名；disabled 表示不使用。', 'On TLS connections, use the peer certificate\'s CN, DN or whole certificate as username; disabled turns it off.'),
  peer_cert_as_clientid: h('TLS 连接中用对端证书的 CN、DN 或整个证书作为客户端 ID；disabled 表示不使用。', 'On TLS connections, use the peer certificate\'s CN, DN or whole certificate as client ID; disabled turns it off.'),
  max_subscriptions: h('每个客户端可持有的订阅数上限，infinity 表示不限制。', 'Most subscriptions one client may hold; infinity means no limit.'),
  upgrade_qos: enable('投递消息时按订阅的 QoS 提升消息的 QoS', 'messages are delivered with the subscription\'s QoS when it is higher'),
  max_inflight: h('每个会话中已发送但未确认的 QoS 1/2 消息的最大数量。', 'Most QoS 1 and 2 messages a session may have sent but not yet acknowledged.'),
  retry_interval: h('未收到确认的 QoS 1/2 消息的重发间隔。', 'How long to wait for an acknowledgement before sending a QoS 1 or 2 message again.'),
  max_awaiting_rel: h('每个会话中等待 PUBREL 的 QoS 2 消息的最大数量，超过时新的 QoS 2 消息被拒绝。', 'Most QoS 2 messages a session may hold while waiting for PUBREL; more are refused.'),
  await_rel_timeout: h('等待 PUBREL 的最长时间，超时后该 QoS 2 消息被丢弃。', 'How long a QoS 2 message waits for PUBREL before it is dropped.'),
  session_expiry_interval: h('客户端断开后会话的保留时长（适用于未指定该值的 MQTT 3.x 非 clean session 客户端）。', 'How long a session is kept after its client disconnects (for MQTT 3.x clients without clean session).'),
  max_mqueue_len: h('客户端离线或飞行窗口已满时，消息队列可缓存的最大消息数。', 'Most messages queued while the client is offline or its inflight window is full.'),
  mqueue_priorities: h('主题到优先级（1–255）的映射，优先级高的消息先出队；disabled 表示不区分优先级。', 'Map of topic to priority (1–255); messages of a higher priority leave the queue first; disabled treats all alike.'),
  mqueue_default_priority: h('不在优先级表中的主题按最高还是最低优先级处理。', 'Whether topics missing from the priority table count as highest or lowest.'),
  mqueue_store_qos0: enable('客户端离线而会话保留期间，QoS 0 消息也进入消息队列', 'QoS 0 messages are queued too while the client is offline and its session kept'),
  // 5.10 and later: one bucket shared by every client of the zone.
  ...Object.fromEntries(Object.entries(limiterHelp(() => h('该区域所有客户端合计', 'by all clients of the zone together'))).map(([name, text]) => [`limiter.${name}`, text])),
};

const retainer: Record<string, Text> = {
  enable: enable('代理存储并向新订阅者投递保留消息', 'the broker stores retained messages and delivers them to new subscribers'),
  'backend.storage_type': h('保留消息存放在内存（ram）还是磁盘（disc）。', 'Whether retained messages are kept in memory (ram) or on disk (disc).'),
  'backend.max_retained_messages': h('可存储的保留消息数上限。', 'Most retained messages stored.'),
  max_payload_size: h('可保留消息的最大负载大小，更大的消息不会被保留。', 'Largest payload that is retained; bigger messages are not stored.'),
  msg_expiry_interval: h('保留消息的存放时长（消息自带的过期时间优先）。', 'How long a retained message is kept (a message\'s own expiry wins).'),
  msg_clear_interval: h('清理过期保留消息的周期。', 'How often expired retained messages are removed.'),
  delivery_rate: h('向新订阅者投递保留消息的最大速率。', 'Highest rate at which retained messages are delivered to a new subscriber.'),
  stop_publish_clear_msg: enable('收到空负载的保留消息时不再转发，只清除该主题的保留消息', 'a retained message with an empty payload only clears the topic and is not forwarded'),
};

const sysEvent = (zh: string, en: string) => enable(`在 $SYS 主题下发布客户端${zh}事件`, `the broker publishes client ${en} events under $SYS`);
const sys_topics: Record<string, Text> = {
  sys_msg_interval: h('发布 $SYS 下代理版本、统计和指标消息的间隔，disabled 表示不发布。', 'How often version, statistics and metrics are published under $SYS; disabled stops them.'),
  sys_heartbeat_interval: h('发布 $SYS 下运行时长与当前时间心跳消息的间隔，disabled 表示不发布。', 'How often uptime and date-time heartbeats are published under $SYS; disabled stops them.'),
  'sys_event_messages.client_connected': sysEvent('连接', 'connected'),
  'sys_event_messages.client_disconnected': sysEvent('断开', 'disconnected'),
  'sys_event_messages.client_subscribed': sysEvent('订阅', 'subscribed'),
  'sys_event_messages.client_unsubscribed': sysEvent('取消订阅', 'unsubscribed'),
};

const handler = {
  level: h('记录的最低日志级别，低于此级别的日志被忽略。', 'Lowest level written; less severe entries are skipped.'),
  formatter: h('日志行的格式：纯文本（text）或 JSON。', 'Format of each entry: plain text or JSON.'),
  time_offset: h('日志时间戳的时区：system 为系统时区，utc，或 +08:00 这样的偏移。', 'Time zone of timestamps: system, utc, or an offset such as +08:00.'),
  path: h('日志文件的路径。', 'Path of the log file.'),
  rotation_count: h('轮换时保留的日志文件数量，超过时删除最旧的文件。', 'How many rotated files are kept; the oldest is deleted beyond it.'),
  rotation_size: h('日志文件达到此大小时轮换为新文件，infinity 表示不轮换。', 'Size at which the file is rotated; infinity never rotates.'),
};
const log: Record<string, Text> = {
  'console.enable': enable('日志写到标准输出', 'log entries are written to standard output'),
  'console.level': handler.level,
  'console.formatter': handler.formatter,
  'console.time_offset': handler.time_offset,
  'file.enable': enable('日志写到文件', 'log entries are written to a file'),
  'file.level': handler.level,
  'file.path': handler.path,
  'file.rotation_count': handler.rotation_count,
  'file.rotation_size': handler.rotation_size,
  'file.formatter': handler.formatter,
  'file.time_offset': handler.time_offset,
  'audit.enable': enable('记录通过 Dashboard、REST API 和命令行所做的修改', 'changes made through the dashboard, the REST API and the CLI are recorded'),
  'audit.max_filter_size': h('可在 Dashboard 中查询的最近审计记录条数。', 'How many recent audit entries can be searched in the dashboard.'),
  'audit.ignore_high_frequency_request': enable('不记录频繁的请求（如客户端发布消息）', 'frequent requests such as publishing on behalf of clients are not recorded'),
  'audit.path': handler.path,
  'audit.rotation_count': handler.rotation_count,
  'audit.rotation_size': handler.rotation_size,
  'audit.time_offset': handler.time_offset,
};

const alarm: Record<string, Text> = {
  actions: h('告警激活时的动作：log 写入日志，publish 发布到 $SYS 系统主题。', 'What an alarm triggers: log writes it to the log, publish sends it to a $SYS topic.'),
  size_limit: h('保留的已清除告警历史条数上限，超过时删除最旧的记录。', 'Most deactivated alarms kept as history; the oldest go first.'),
  validity_period: h('已清除告警在历史中的保留时长。', 'How long a deactivated alarm stays in the history.'),
};

const watch = (zh: string, en: string): Text => h(`${zh}，超过时记录警告日志并发布到 $SYS/sysmon；disabled 表示不监控。`, `${en}; beyond it a warning is logged and published to $SYS/sysmon. disabled turns it off.`);
const sysmon: Record<string, Text> = {
  'vm.process_check_interval': h('检查 Erlang 进程数量的间隔。', 'How often the number of Erlang processes is checked.'),
  'vm.process_high_watermark': h('进程数占上限的比例达到此值时触发告警。', 'Share of the process limit in use at which an alarm is raised.'),
  'vm.process_low_watermark': h('进程数占比回落到此值以下时清除告警。', 'Share of the process limit below which the alarm is cleared.'),
  'vm.long_gc': watch('单次垃圾回收耗时的阈值', 'Threshold for a single garbage collection'),
  'vm.long_schedule': watch('进程一次调度占用时长的阈值', 'Threshold for a process running without yielding'),
  'vm.large_heap': watch('单个进程堆内存的阈值', 'Threshold for the heap of one process'),
  'vm.busy_dist_port': enable('集群节点间通信繁忙时记录警告日志并发布到 $SYS/sysmon', 'an overloaded link to another cluster node is logged and published to $SYS/sysmon'),
  'vm.busy_port': enable('端口（如 TCP 套接字）繁忙时记录警告日志并发布到 $SYS/sysmon', 'an overloaded port such as a TCP socket is logged and published to $SYS/sysmon'),
  'os.cpu_check_interval': h('检查 CPU 使用率的间隔。', 'How often CPU usage is checked.'),
  'os.cpu_high_watermark': h('CPU 使用率达到此值时触发告警。', 'CPU usage at which an alarm is raised.'),
  'os.cpu_low_watermark': h('CPU 使用率回落到此值以下时清除告警。', 'CPU usage below which the alarm is cleared.'),
  'os.mem_check_interval': h('检查内存使用的间隔，disabled 表示不检查。', 'How often memory usage is checked; disabled stops the check.'),
  'os.sysmem_high_watermark': h('系统内存使用率达到此值时触发告警。', 'System memory usage at which an alarm is raised.'),
  'os.procmem_high_watermark': h('单个 Erlang 进程占用系统内存的比例达到此值时触发告警。', 'Share of system memory one Erlang process may use before an alarm is raised.'),
};

const collector = (zh: string, en: string): Text => h(`是否在抓取接口中导出${zh}指标。`, `Whether the scrape endpoint exports ${en} metrics.`);
const prometheus: Record<string, Text> = {
  enable_basic_auth: enable('抓取接口 /api/v5/prometheus/stats 需要 API 密钥的基本认证', 'the scrape endpoint /api/v5/prometheus/stats requires basic authentication with an API key'),
  'push_gateway.enable': enable('定期将指标推送到 Pushgateway', 'metrics are pushed to a Pushgateway at each interval'),
  'push_gateway.url': h('Pushgateway 的地址。', 'Address of the Pushgateway.'),
  'push_gateway.interval': h('推送指标的间隔。', 'How often metrics are pushed.'),
  'push_gateway.headers': h('推送请求附带的 HTTP 头，JSON 对象。', 'HTTP headers sent with each push, as a JSON object.'),
  'push_gateway.job_name': h('推送使用的任务名，可用 ${name} 和 ${host} 代表节点名与主机。', 'Job name of the push; ${name} and ${host} stand for the node name and host.'),
  'collectors.vm_dist': collector(' Erlang 分布式连接', 'Erlang distribution'),
  'collectors.mnesia': collector(' Mnesia 数据库', 'Mnesia database'),
  'collectors.vm_statistics': collector(' Erlang VM 统计', 'Erlang VM statistics'),
  'collectors.vm_system_info': collector(' Erlang VM 系统信息', 'Erlang VM system info'),
  'collectors.vm_memory': collector(' Erlang VM 内存', 'Erlang VM memory'),
  'collectors.vm_msacc': collector(' Erlang VM 微状态统计', 'Erlang VM microstate accounting'),
};

const opentelemetry: Record<string, Text> = {
  'exporter.endpoint': h('OpenTelemetry 收集器的 gRPC 地址。', 'gRPC address of the OpenTelemetry collector.'),
  'metrics.enable': enable('导出指标到收集器', 'metrics are exported to the collector'),
  'metrics.interval': h('导出指标的间隔。', 'How often metrics are exported.'),
  'logs.enable': enable('导出日志到收集器', 'log entries are exported to the collector'),
  'logs.level': h('导出日志的最低级别。', 'Lowest level of exported log entries.'),
  'traces.enable': enable('导出消息追踪到收集器', 'message traces are exported to the collector'),
  'traces.filter.trace_all': enable('追踪所有消息，而不只是带追踪上下文的消息', 'every message is traced, not only those carrying a trace context'),
};

const tls: Record<string, Text> = {
  enable: enable('使用 TLS 连接', 'the connection uses TLS'),
  verify: h('是否验证对端证书：verify_peer 验证，verify_none 不验证。', 'Whether the peer\'s certificate is checked: verify_peer checks, verify_none does not.'),
  cacertfile: h('用于验证对端证书的 CA 证书（PEM）。', 'CA certificates (PEM) used to check the peer\'s certificate.'),
  certfile: h('本端证书链（PEM），本端证书在前。', 'This side\'s certificate chain (PEM), its own certificate first.'),
  keyfile: h('与证书配对的私钥（PEM）。', 'Private key (PEM) of the certificate.'),
  server_name_indication: h('TLS 握手中发送的服务器名称（SNI），留空时使用连接的主机名。', 'Server name sent in the TLS handshake (SNI); empty uses the host connected to.'),
  versions: h('允许的 TLS 版本，每行一个，例如 tlsv1.3。', 'TLS versions allowed, one per line, e.g. tlsv1.3.'),
  ciphers: h('允许的加密套件，每行一个；留空时使用所选 TLS 版本的默认套件。', 'Cipher suites allowed, one per line; empty uses the defaults of the chosen TLS versions.'),
};

const rate = (zh: string, en: string): Text => h(`每个节点${zh}的最大速率；留空或 infinity 表示不限制。`, `Highest rate of ${en} per node; empty or infinity means no limit.`);
const limiter: Record<string, Text> = {
  max_conn_rate: rate('接受新连接', 'new connections accepted'),
  messages_rate: rate('接收客户端消息', 'messages received from clients'),
  bytes_rate: rate('接收客户端数据', 'bytes received from clients'),
};

const force_shutdown: Record<string, Text> = {
  enable: enable('客户端进程过载时强制断开该客户端', 'an overloaded client process is shut down'),
  max_mailbox_size: h('客户端进程消息队列的长度上限，超过时强制断开。', 'Most messages waiting in a client process\'s mailbox before it is shut down.'),
  max_heap_size: h('客户端进程堆内存的上限，超过时强制断开。', 'Largest heap a client process may use before it is shut down.'),
};

const force_gc: Record<string, Text> = {
  enable: enable('客户端进程处理一定量的消息或数据后强制垃圾回收', 'a client process collects garbage after a number of messages or bytes'),
  count: h('进程收到这么多条消息后进行一次垃圾回收。', 'Messages received after which the process collects garbage.'),
  bytes: h('进程处理这么多数据后进行一次垃圾回收。', 'Bytes handled after which the process collects garbage.'),
};

const listen = {
  bind: h('Dashboard 的监听端口或 IP:端口。', 'Port or IP:port the dashboard listens on.'),
  num_acceptors: h('接受新连接的进程数量。', 'Number of processes accepting new connections.'),
  max_connections: h('同时打开的最大连接数。', 'Most connections open at the same time.'),
  backlog: h('等待接受的 TCP 连接队列长度。', 'Length of the queue of TCP connections waiting to be accepted.'),
  send_timeout: h('发送数据的超时时间。', 'Timeout for sending data.'),
  inet6: enable('监听 IPv6 地址', 'the listener binds an IPv6 address'),
  ipv6_v6only: enable('IPv6 监听器只接受 IPv6 连接', 'an IPv6 listener accepts IPv6 connections only'),
  proxy_header: enable('从负载均衡器的 PROXY 协议头中读取客户端地址', 'the client address is read from a load balancer\'s PROXY protocol header'),
};
const dashboard: Record<string, Text> = {
  token_expired_time: h('Dashboard 登录令牌的有效期。', 'How long a dashboard login token stays valid.'),
  cors: enable('允许跨域请求（CORS）访问 Dashboard API', 'cross-origin requests (CORS) to the dashboard API are allowed'),
  ...Object.fromEntries(['http', 'https'].flatMap((scheme) => Object.entries(listen).map(([key, text]) => [`listeners.${scheme}.${key}`, text]))),
};

const listeners: Record<string, Text> = {
  // 5.10 and later: messages and bytes per client of the listener, connections per listener.
  ...limiterHelp((name) => (name === 'max_conn' ? h('该监听器', 'on this listener') : h('该监听器每个客户端', 'by each client of this listener'))),
  enable: enable('监听器接受连接', 'the listener accepts connections'),
  bind: h('监听的端口或 IP:端口，例如 1883 或 0.0.0.0:1883。', 'Port or IP:port to listen on, e.g. 1883 or 0.0.0.0:1883.'),
  acceptors: h('接受新连接的进程数量。', 'Number of processes accepting new connections.'),
  max_connections: h('该监听器同时连接的客户端上限，infinity 表示不限制。', 'Most clients connected to this listener at once; infinity means no limit.'),
  mountpoint: h('加在该监听器客户端所有主题前的前缀，可用 ${clientid}、${username} 等占位符。', 'Prefix added to every topic of this listener\'s clients; ${clientid}, ${username} and others may be used.'),
  enable_authn: h('是否认证该监听器的客户端：true 认证，false 不认证，quick_deny_anonymous 直接拒绝匿名客户端。', 'Whether clients are authenticated: true yes, false no, quick_deny_anonymous refuses anonymous clients at once.'),
  access_rules: h('按客户端地址允许或拒绝连接的规则，每行一条，例如 allow all 或 deny 192.168.0.0/24。', 'Rules allowing or denying connections by client address, one per line, e.g. allow all or deny 192.168.0.0/24.'),
  proxy_protocol: enable('从负载均衡器的 PROXY 协议头中读取客户端地址', 'the client address is read from a load balancer\'s PROXY protocol header'),
  proxy_protocol_timeout: h('等待 PROXY 协议头的最长时间。', 'How long to wait for the PROXY protocol header.'),
  'tcp_options.backlog': listen.backlog,
  'tcp_options.send_timeout': h('向客户端发送数据的超时时间，超时则关闭连接。', 'Timeout for sending to a client; the connection is closed when it passes.'),
  'tcp_options.buffer': h('每个连接在用户态的收发缓冲区大小。', 'Size of each connection\'s user-level buffer.'),
  'websocket.mqtt_path': h('WebSocket 上 MQTT 连接的 URL 路径。', 'URL path of MQTT over WebSocket.'),
  mtu: h('QUIC 数据包的最大传输单元（1248–1500）。', 'Largest QUIC packet sent (1248–1500).'),
};

/** The texts by config root; TLS blocks (`…ssl_options.<key>`) share the `tls` entries. */
export const helpTexts: Record<string, Record<string, Text>> = {
  mqtt, retainer, sys_topics, log, alarm, sysmon, prometheus, opentelemetry, tls, limiter, force_shutdown, force_gc, dashboard, listeners,
};

/** Units of values that are bare numbers or words (durations and sizes show theirs by type). */
const units: Record<string, Text> = {
  seconds: h('秒', 'seconds'),
  percent: h('百分比，例如 80%', 'percent, e.g. 80%'),
  characters: h('字符', 'characters'),
  levels: h('层', 'levels'),
  messages: h('条消息', 'messages'),
  files: h('个文件', 'files'),
  entries: h('条记录', 'entries'),
  alarms: h('条告警', 'alarms'),
  connections: h('个连接', 'connections'),
  subscriptions: h('个订阅', 'subscriptions'),
  processes: h('个进程', 'processes'),
  bytes: h('字节', 'bytes'),
  rate: h('数量/时间窗口，例如 1000/s、10MB/s', 'amount per time window, e.g. 1000/s, 10MB/s'),
  multiple: h('倍', 'times the keep-alive'),
};

const unitOf: Record<string, keyof typeof units> = {
  'mqtt.max_clientid_len': 'characters', 'mqtt.max_topic_levels': 'levels', 'mqtt.server_keepalive': 'seconds',
  'mqtt.keepalive_multiplier': 'multiple', 'mqtt.max_subscriptions': 'subscriptions', 'mqtt.max_inflight': 'messages',
  'mqtt.max_awaiting_rel': 'messages', 'mqtt.max_mqueue_len': 'messages',
  'retainer.backend.max_retained_messages': 'messages',
  'log.file.rotation_count': 'files', 'log.audit.rotation_count': 'files', 'log.audit.max_filter_size': 'entries',
  'alarm.size_limit': 'alarms',
  'sysmon.vm.process_high_watermark': 'percent', 'sysmon.vm.process_low_watermark': 'percent',
  'sysmon.os.cpu_high_watermark': 'percent', 'sysmon.os.cpu_low_watermark': 'percent',
  'sysmon.os.sysmem_high_watermark': 'percent', 'sysmon.os.procmem_high_watermark': 'percent',
  'force_shutdown.max_mailbox_size': 'messages', 'force_gc.count': 'messages',
  'dashboard.listeners.http.num_acceptors': 'processes', 'dashboard.listeners.https.num_acceptors': 'processes',
  'dashboard.listeners.http.max_connections': 'connections', 'dashboard.listeners.https.max_connections': 'connections',
  'dashboard.listeners.http.backlog': 'connections', 'dashboard.listeners.https.backlog': 'connections',
  'listeners.acceptors': 'processes', 'listeners.max_connections': 'connections',
  // Every rate and burst: the 5.5 limiter's, the retainer's, a listener's and the zone's limiter's.
  'retainer.delivery_rate': 'rate',
  ...Object.fromEntries(['max_conn', 'messages', 'bytes'].flatMap((name) => [`limiter.${name}_rate`, ...['rate', 'burst'].flatMap((kind) => [`listeners.${name}_${kind}`, `mqtt.limiter.${name}_${kind}`])].map((path) => [path, 'rate']))),
  'listeners.tcp_options.backlog': 'connections', 'listeners.mtu': 'bytes',
};

/**
 * Broker defaults of the hand-declared fields (emqx_schema.erl at v5.5.1: `mqtt_tcp_listener`,
 * `tcp_opts`, `ws_opts`, client TLS); the limiter rates and a listener's bind have none to reset to.
 */
const defaults: Record<string, unknown> = {
  'listeners.enable': true, 'listeners.acceptors': 16, 'listeners.max_connections': 'infinity', 'listeners.mountpoint': '',
  'listeners.enable_authn': true, 'listeners.access_rules': ['allow all'], 'listeners.proxy_protocol': false,
  'listeners.proxy_protocol_timeout': '3s', 'listeners.tcp_options.backlog': 1024, 'listeners.tcp_options.send_timeout': '15s',
  'listeners.tcp_options.buffer': '4KB', 'listeners.websocket.mqtt_path': '/mqtt',
  'tls.enable': false, 'tls.verify': 'verify_none', 'tls.versions': ['tlsv1.3', 'tlsv1.2'], 'tls.ciphers': [],
};

const messages: Messages = {};
for (const [root, table] of Object.entries(helpTexts)) for (const [name, text] of Object.entries(table)) messages[`configHelp.${root}.${name}`] = text;
for (const [name, text] of Object.entries(units)) messages[`configUnit.${name}`] = text;
defineMessages(messages);

/** The schema path of a field: TLS blocks anywhere read the shared `tls` entries. */
export function helpPath(root: string, name: string): string {
  const tlsKey = /(?:^|\.)ssl_options\.([^.]+)$/.exec(name)?.[1];
  return tlsKey ? `tls.${tlsKey}` : `${root}.${name}`;
}

/** The help of the fields of config root `root` (e.g. `mqtt`, `log`, `listeners`); adds the styles it needs. */
export function helpOf(root: string): HelpLookup {
  addHelpStyles();
  return (name) => {
    const path = helpPath(root, name);
    const key = `configHelp.${path}`;
    if (!hasMessage(key)) return undefined;
    const help: FieldHelp = { text: key };
    if (unitOf[path]) help.unit = `configUnit.${unitOf[path]}`;
    if (path in defaults) help.default = defaults[path];
    return help;
  };
}
