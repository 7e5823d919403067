// The MQTT 5 reason codes the simulator's broker modules send, named as emqx_reason_codes.erl
// (v5.5.1) names them [MQTT-2.4]. One table, so a code is written once.
export const RC_DISCONNECT_WITH_WILL = 0x04;
export const RC_NO_MATCHING_SUBSCRIBERS = 0x10;
/** Codes from here on are failures [MQTT-2.4-1]. */
export const RC_UNSPECIFIED_ERROR = 0x80;
export const RC_MALFORMED_PACKET = 0x81;
export const RC_PROTOCOL_ERROR = 0x82;
export const RC_IMPLEMENTATION_SPECIFIC_ERROR = 0x83;
export const RC_NOT_AUTHORIZED = 0x87;
export const RC_BANNED = 0x8a;
export const RC_KEEP_ALIVE_TIMEOUT = 0x8d;
export const RC_SESSION_TAKEN_OVER = 0x8e;
export const RC_TOPIC_FILTER_INVALID = 0x8f;
export const RC_TOPIC_NAME_INVALID = 0x90;
export const RC_PACKET_IDENTIFIER_IN_USE = 0x91;
export const RC_RECEIVE_MAXIMUM_EXCEEDED = 0x93;
export const RC_TOPIC_ALIAS_INVALID = 0x94;
export const RC_PACKET_TOO_LARGE = 0x95;
export const RC_QUOTA_EXCEEDED = 0x97;
export const RC_ADMINISTRATIVE_ACTION = 0x98;
export const RC_RETAIN_NOT_SUPPORTED = 0x9a;
export const RC_QOS_NOT_SUPPORTED = 0x9b;
export const RC_WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED = 0xa2;
