/**
 * The console's error language: a sentence in both languages for every code of the broker's
 * `GET /error_codes` catalog (apps/emqx/include/http_api.hrl) and for the endpoint codes the API
 * notes list, and the known raw reasons (Erlang terms, hocon validation objects, dependency
 * refusals) turned into sentences. Loaded with the logged-in shell; `errors.ts` asks it through
 * `registerReasons`, so the login page carries only its own few messages.
 */
import { registerReasons, type ReasonSentence } from './errors.ts';
import { defineMessages } from './i18n.ts';
// 'validation.required', the one wording for a missing field, is the form rules'.
import './rules.ts';

export const codeMessages = defineMessages({
  // ?ERROR_CODES (http_api.hrl, v5.5.1 and v5.8.9).
  'errors.BAD_API_KEY_OR_SECRET': { zh: 'API 密钥或密钥值不正确', en: 'The API key or secret is not correct' },
  'errors.BAD_REQUEST': { zh: '请求参数不正确', en: 'The request has invalid parameters' },
  'errors.NOT_MATCH': { zh: '条件不匹配', en: 'The conditions do not match' },
  'errors.ALREADY_EXISTS': { zh: '同名资源已存在', en: 'Something with this name already exists' },
  'errors.BAD_CONFIG_SCHEMA': { zh: '配置数据不正确', en: 'The configuration is not valid' },
  'errors.BAD_LISTENER_ID': { zh: '监听器 ID 不正确', en: 'The listener ID is not valid' },
  'errors.BAD_NODE_NAME': { zh: '节点名不正确', en: 'The node name is not valid' },
  'errors.BAD_RPC': { zh: '集群调用失败，请检查集群及目标节点状态', en: 'A call inside the cluster failed: check the cluster and the node asked' },
  'errors.BAD_TOPIC': { zh: '主题不符合 MQTT 协议规范', en: 'The topic does not follow the MQTT rules' },
  'errors.EXCEED_LIMIT': { zh: '超出了允许的数量上限或下限', en: 'This goes beyond the allowed maximum or minimum' },
  'errors.INVALID_PARAMETER': { zh: '请求参数无效或超出范围', en: 'A parameter is not valid or out of range' },
  'errors.CONFLICT': { zh: '请求的资源存在冲突', en: 'The request conflicts with the current state' },
  'errors.NO_DEFAULT_VALUE': { zh: '请求参数没有默认值', en: 'A parameter has no default value and must be given' },
  'errors.DEPENDENCY_EXISTS': { zh: '该资源正在被其他资源使用', en: 'Something else still uses this' },
  'errors.MESSAGE_ID_SCHEMA_ERROR': { zh: '消息 ID 格式错误', en: 'The message ID is malformed' },
  'errors.INVALID_ID': { zh: 'ID 格式错误', en: 'The ID is malformed' },
  'errors.MESSAGE_ID_NOT_FOUND': { zh: '消息 ID 不存在', en: 'There is no message with this ID' },
  'errors.CLIENTID_NOT_FOUND': { zh: '客户端 ID 不存在', en: 'There is no client with this ID' },
  'errors.CLIENT_NOT_FOUND': { zh: '客户端不存在或已断开', en: 'The client is not there (or is not an MQTT client)' },
  'errors.RESOURCE_NOT_FOUND': { zh: '资源不存在', en: 'The resource does not exist' },
  'errors.TOPIC_NOT_FOUND': { zh: '主题不存在', en: 'The topic does not exist' },
  'errors.SERVICE_UNAVAILABLE': { zh: '服务暂不可用', en: 'The service is not available right now' },
  'errors.SOURCE_ERROR': { zh: '数据源出错', en: 'The source reported an error' },
  'errors.UPDATE_FAILED': { zh: '更新失败', en: 'The update failed' },
  'errors.REST_FAILED': { zh: '重置数据源或配置失败', en: 'Resetting the source or configuration failed' },
  'errors.CLIENT_NOT_RESPONSE': { zh: '客户端没有响应', en: 'The client did not answer' },
  'errors.UNSUPPORTED_MEDIA_TYPE': { zh: '不支持的内容类型', en: 'This content type is not supported' },
  // Codes particular to endpoints (emqx-api-part1.md §2.1).
  'errors.TOKEN_TIME_OUT': { zh: '登录已过期，请重新登录', en: 'Login has expired, please login again' },
  'errors.BAD_TOKEN': { zh: '登录凭证无效，请重新登录', en: 'The login is not valid, please login again' },
  'errors.AUTHORIZATION_HEADER_ERROR': { zh: '缺少登录凭证', en: 'The request carries no login' },
  'errors.API_KEY_NOT_ALLOW': { zh: 'API 密钥不能用于此操作', en: 'An API key cannot be used for this' },
  'errors.WRONG_TOKEN_OR_USERNAME': { zh: '用户名与登录凭证不符', en: 'The username does not match the login' },
  'errors.NOT_ALLOWED': { zh: '不允许此操作', en: 'This is not allowed' },
  'errors.CLIENT_SHUTDOWN': { zh: '客户端已关闭', en: 'The client has shut down' },
  'errors.NOT_IMPLEMENTED': { zh: '此 Broker 未实现该功能', en: 'This broker does not implement this' },
  'errors.UNKNOWN_ERROR': { zh: '未知错误', en: 'Unknown error' },
  'errors.PARAM_ERROR': { zh: '参数错误', en: 'A parameter is wrong' },
  'errors.NODE_DOWN': { zh: '节点已停止或无法访问', en: 'The node is down or cannot be reached' },
  'errors.INVALID_PARAMS': { zh: '参数无效', en: 'The parameters are not valid' },
  'errors.DUPLICATE_CONDITION': { zh: '已有相同条件的追踪', en: 'A trace with the same condition exists' },
  'errors.BAD_TYPE': { zh: '类型不正确', en: 'The type is not valid' },
  'errors.NODE_ERROR': { zh: '节点出错', en: 'The node reported an error' },
  'errors.PAYLOAD_TOO_LARGE': { zh: '内容过大', en: 'The content is too large' },
  'errors.INVALID_TOPIC_NAME': { zh: '主题名无效', en: 'The topic name is not valid' },
  'errors.MESSAGE_NOT_FOUND': { zh: '消息不存在', en: 'The message does not exist' },
  'errors.INVALID_NODE': { zh: '节点无效', en: 'The node is not valid' },
  'errors.ALREADY_INSTALLED': { zh: '插件已安装', en: 'The plugin is installed already' },
  'errors.BAD_PLUGIN_INFO': { zh: '插件信息不正确', en: 'The plugin information is not valid' },
  'errors.FORBIDDEN': { zh: '没有权限', en: 'Not permitted' },
  'errors.BAD_FORM_DATA': { zh: '上传的表单数据不正确', en: 'The uploaded form data is not valid' },
  'errors.BAD_CONFIG': { zh: '配置不正确', en: 'The configuration is not valid' },
  'errors.MOVE_FAILED': { zh: '移动失败', en: 'Moving failed' },
  'errors.BAD_POSITION': { zh: '位置不正确', en: 'The position is not valid' },
  'errors.FILE_NOT_EXISTED': { zh: '文件不存在', en: 'The file does not exist' },
  'errors.INVALID_ACCEPT': { zh: '不支持请求的返回格式', en: 'The requested response format is not supported' },
  'errors.BAD_NODE': { zh: '节点不正确', en: 'The node is not valid' },
  'errors.INVALID_CONFIG': { zh: '配置无效', en: 'The configuration is not valid' },
  'errors.METHOD_NOT_ALLOWED': { zh: '不支持此请求方法', en: 'This request method is not allowed' },
  'errors.NOT_SUPPORT': { zh: '不支持此操作', en: 'This is not supported' },
  'errors.BACKEND_NOT_FOUND': { zh: '单点登录后端不存在', en: 'The single sign-on backend does not exist' },
  'errors.RULE_NOT_FOUND': { zh: '规则不存在', en: 'The rule does not exist' },
  'errors.TEST_FAILED': { zh: '测试未通过', en: 'The test did not pass' },
  'errors.FILES_NOT_FOUND': { zh: '文件不存在', en: 'The files do not exist' },
  // Spelled so by the broker (emqx_mgmt_api_trace.erl).
  'errors.INVALID_PARAMTER': { zh: '参数无效', en: 'A parameter is not valid' },
  'errors.BAD_MFA_TOKEN': { zh: '多因素认证码不正确', en: 'The multi-factor code is not correct' },
  'errors.UNAUTHORIZED': { zh: '需要登录后操作', en: 'Sign in first' },
  // emqx_dashboard_api.erl authorize_mfa_change/3 (5.9 on).
  'errors.MFA_LOCKED': { zh: '管理员已限制此账户的双因素认证设置，需要 mfa_management 权限范围', en: 'An administrator restricted this account\'s two-factor settings: the mfa_management scope is needed' },
  'errors.MFA_SELF_ONLY': { zh: '非管理员只能管理自己的双因素认证', en: 'Without the administrator role you may manage only your own two-factor authentication' },
  'errors.MFA_MGMT_REQUIRED': { zh: '管理其他用户的双因素认证需要 mfa_management 权限范围', en: 'Managing another user\'s two-factor authentication needs the mfa_management scope' },
});

export const reasonMessages = defineMessages({
  'errors.reason.nodeDown': { zh: '节点 {{node}} 已停止或无法访问', en: 'The node {{node}} is down or cannot be reached' },
  'errors.reason.nodeUnreachable': { zh: '无法访问该节点：请检查节点名及网络', en: 'The node cannot be reached: check its name and the network' },
  'errors.reason.alreadyInCluster': { zh: '该节点已在集群中', en: 'This node is in the cluster already' },
  'errors.reason.inviteSelf': { zh: '不能邀请节点自身加入集群', en: 'A node cannot invite itself' },
  'errors.reason.connectorInUse': {
    zh: '该连接器仍被以下动作使用，请先删除它们：{{ids}}',
    en: 'Actions still use this connector; delete them first: {{ids}}',
  },
  'errors.reason.actionInUse': { zh: '以下规则仍在使用它，请先从规则中移除：{{ids}}', en: 'Rules still use this; remove it from them first: {{ids}}' },
  'errors.reason.badUrl': { zh: 'URL 格式不正确，例如 http://127.0.0.1:8080/path', en: 'This is not a valid URL, e.g. http://127.0.0.1:8080/path' },
  'errors.reason.badBind': { zh: '端口或 IP:端口无效：{{value}}', en: 'Not a valid port or IP:port: {{value}}' },
  'errors.reason.outOfRange': { zh: '超出允许范围 {{range}}', en: 'Out of the allowed range {{range}}' },
  'errors.reason.unknownField': { zh: '此 Broker 版本不认识字段 {{field}}', en: 'This broker release does not know the field {{field}}' },
  'errors.reason.fieldInvalid': { zh: '{{field}} 的值无效', en: 'The value of {{field}} is not valid' },
  'errors.reason.timeout': { zh: '等待响应超时', en: 'No answer came in time' },
  'errors.reason.refused': { zh: '目标拒绝连接：{{target}}', en: 'The connection was refused: {{target}}' },
  'errors.reason.refusedBare': { zh: '目标拒绝连接', en: 'The connection was refused' },
  'errors.reason.sqlSyntax': { zh: 'SQL 语法错误', en: 'The SQL has a syntax error' },
  'errors.reason.badJson': { zh: 'JSON 格式不正确', en: 'The JSON is not valid' },
  'errors.reason.badTopicFilter': { zh: '主题过滤器不符合 MQTT 规范', en: 'The topic filter does not follow the MQTT rules' },
  'errors.reason.badPage': { zh: '分页参数无效', en: 'The page or page size is not valid' },
  'errors.reason.reservedUser': { zh: '该用户名为系统保留', en: 'This username is reserved' },
});

type Rule = [RegExp, (match: RegExpExecArray, body: { rules?: unknown }, field: string) => ReasonSentence];

/** Last field of a hocon path, as the form calls it: `connectors.http.url` → `url`. */
const fieldName = (path: string) => path.split('.').pop() ?? path;

/**
 * Known raw reasons, most particular first. Each names a message and its values; the raw text
 * stays available to the operator as the error's details.
 */
const RULES: Rule[] = [
  // emqx_mgmt_cluster / rpc failures: `{badrpc,nodedown}`, `bad rpc call <node>, Reason nodedown`.
  [/bad rpc call ([^\s,]+)/i, (m) => ({ key: 'errors.reason.nodeDown', values: { node: m[1] } })],
  [/\{badrpc,\s*nodedown\}|\bnodedown\b|^bad rpc call$/i, () => ({ key: 'errors.reason.nodeUnreachable' })],
  [/\{already_in_cluster/, () => ({ key: 'errors.reason.alreadyInCluster' })],
  [/^Cannot invite self/, () => ({ key: 'errors.reason.inviteSelf' })],
  // emqx_bridge_v2_api / emqx_connector_api: dependencies named in the message.
  [/active channels defined for this connector:\s*(.+)$/, (m) => ({ key: 'errors.reason.connectorInUse', values: { ids: m[1].trim() } })],
  [/while active rules are depending on it/, (_m, body) => ({ key: 'errors.reason.actionInUse', values: { ids: Array.isArray(body.rules) ? body.rules.join(', ') : '' } })],
  [/\b(bad_url|invalid_url|bad_uri)\b/, () => ({ key: 'errors.reason.badUrl' })],
  // One wording for it, the form's own: "<field> is required".
  [/\brequired_field\b|"reason"\s*:\s*"required"/, (_m, _body, field) => ({ key: 'validation.required', values: { field } })],
  // emqx_schema.erl to_ip_port/1 through the listener's bind validator: `invalid bind: "<text>"`.
  [/^invalid bind: "?([^"]*)"?$/, (m) => ({ key: 'errors.reason.badBind', values: { value: m[1] } })],
  // hocon names the type a value failed: a typerefl range `1..3000`, or the integer aliases
  // (`pos_integer()`, `non_neg_integer()`), in `{"expected": …}`.
  [/"expected":"(-?\d+|'?-inf'?)\.\.(\d+|inf)"/, (m) => ({ key: 'errors.reason.outOfRange', values: { range: `${m[1].replace(/'/g, '')}..${m[2] === 'inf' ? '+inf' : m[2]}` } })],
  [/"expected":"(pos|non_neg)_integer\(\)"/, (m) => ({ key: 'errors.reason.outOfRange', values: { range: m[1] === 'pos' ? '1..+inf' : '0..+inf' } })],
  [/out of range (\S+)/, (m) => ({ key: 'errors.reason.outOfRange', values: { range: m[1].replace(/[",}]+$/, '') } })],
  [/unknown_fields?[^[]*\[?"?([\w.]+)/, (m) => ({ key: 'errors.reason.unknownField', values: { field: m[1] } })],
  [/^timeout$|[{,]\s*timeout\s*[},]|\btimed out\b/i, () => ({ key: 'errors.reason.timeout' })],
  [/\beconnrefused\b(?:[^\w]+(\S+))?/i, (m) => (m[1] ? { key: 'errors.reason.refused', values: { target: m[1] } } : { key: 'errors.reason.refusedBare' })],
  [/\b(bad_json|invalid_json)\b/, () => ({ key: 'errors.reason.badJson' })],
  // Reasons the management API words as atoms (emqx_mgmt_api_*.erl).
  [/^match_topic_invalid$|^invalid_topic(_filter)?$/, () => ({ key: 'errors.reason.badTopicFilter' })],
  [/^\w+_already_exist(s|ed)?$|\balready exists?\b/i, () => ({ key: 'errors.ALREADY_EXISTS' })],
  // emqx_rule_engine_api.erl: the SQL parser's refusal.
  [/\bsyntax error\b/i, () => ({ key: 'errors.reason.sqlSyntax' })],
  [/^page_limit_invalid$/, () => ({ key: 'errors.reason.badPage' })],
  // emqx_dashboard_api.erl change_pwd: the old password, said at its field.
  [/^Old password not match$/i, () => ({ key: 'errors.ERROR_PWD_NOT_MATCH', field: 'old_pwd' })],
];

/** The sentence for a raw reason, or undefined when it is not one of the known ones. */
export function reasonSentence(message: string, body?: unknown): ReasonSentence | undefined {
  // hocon validation objects: {"kind":"validation_error","path":…,"reason":…}
  let text = message;
  let path: string | undefined;
  try {
    const parsed = JSON.parse(message) as { kind?: string; path?: string; reason?: unknown };
    if (parsed && typeof parsed === 'object' && parsed.kind) {
      path = typeof parsed.path === 'string' ? parsed.path : undefined;
      text = typeof parsed.reason === 'string' ? parsed.reason : JSON.stringify(parsed.reason ?? '');
    }
  } catch {
    // not JSON: the text as it is
  }
  for (const [pattern, sentence] of RULES) {
    const match = pattern.exec(text);
    if (match) {
      const said = sentence(match, body && typeof body === 'object' ? body : {}, path ? fieldName(path) : '');
      return { ...said, field: path ? fieldName(path) : said.field };
    }
  }
  if (path) {
    const field = fieldName(path);
    // The broker's own words stay under Details, as for every reason.
    return { key: 'errors.reason.fieldInvalid', values: { field }, field };
  }
  return undefined;
}

registerReasons(reasonSentence);
