// emqx_dashboard_error_code_api.erl: GET /error_codes and /error_codes/{code}, no authentication.
// The catalog is ?ERROR_CODES of apps/emqx/include/http_api.hrl (v5.5.1; v5.8.9 adds one code, in
// the profile table); `code` is an enum in the path, so an unknown one fails the request's check.
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES_SINCE } from '../store/profile.ts';
import type { Profile } from '../store/profile.ts';

/** Code and description, in the header file's order. */
export const ERROR_CODES: readonly (readonly [string, string])[] = [
  ['BAD_USERNAME_OR_PWD', 'Bad username or password'],
  ['BAD_API_KEY_OR_SECRET', 'Bad API key or secret'],
  ['BAD_REQUEST', 'Request parameters are invalid'],
  ['NOT_MATCH', 'Conditions are not matched'],
  ['ALREADY_EXISTS', 'Resource already existed'],
  ['BAD_CONFIG_SCHEMA', 'Configuration data is invalid'],
  ['BAD_LISTENER_ID', 'Bad listener ID'],
  ['BAD_NODE_NAME', 'Bad Node Name'],
  ['BAD_RPC', 'RPC Failed. Check the cluster status and the requested node status'],
  ['BAD_TOPIC', 'Topic syntax error, Topic needs to comply with the MQTT protocol standard'],
  ['EXCEED_LIMIT', 'Create resources that exceed the maximum limit or minimum limit'],
  ['INVALID_PARAMETER', 'Request parameters is invalid and exceeds the boundary value'],
  ['CONFLICT', 'Conflicting request resources'],
  ['NO_DEFAULT_VALUE', 'Request parameters do not use default values'],
  ['DEPENDENCY_EXISTS', 'Resource is dependent by another resource'],
  ['MESSAGE_ID_SCHEMA_ERROR', 'Message ID parsing error'],
  ['INVALID_ID', 'Bad ID schema'],
  ['MESSAGE_ID_NOT_FOUND', 'Message ID does not exist'],
  ['NOT_FOUND', 'Resource was not found or does not exist'],
  ['CLIENTID_NOT_FOUND', 'Client ID was not found or does not exist'],
  ['CLIENT_NOT_FOUND', 'Client was not found or does not exist(usually not a MQTT client)'],
  ['RESOURCE_NOT_FOUND', 'Resource not found'],
  ['TOPIC_NOT_FOUND', 'Topic not found'],
  ['USER_NOT_FOUND', 'User not found'],
  ['INTERNAL_ERROR', 'Server inter error'],
  ['SERVICE_UNAVAILABLE', 'Service unavailable'],
  ['SOURCE_ERROR', 'Source error'],
  ['UPDATE_FAILED', 'Update failed'],
  ['REST_FAILED', 'Reset source or config failed'],
  ['CLIENT_NOT_RESPONSE', 'Client not responding'],
  ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
];

/** The catalog of a release. */
export function errorCodes(profile: Profile): { code: string; description: string }[] {
  return ERROR_CODES.filter(([code]) => !ERROR_CODES_SINCE[code] || profile.has({ since: ERROR_CODES_SINCE[code] }))
    .map(([code, description]) => ({ code, description }));
}

export default async function errorCodesRoutes(app: FastifyInstance): Promise<void> {
  const catalog = errorCodes(app.store.profile);
  app.get('/error_codes', { config: { public: true } }, async () => catalog);
  app.get<{ Params: { code: string } }>('/error_codes/:code', {
    config: { public: true },
    schema: { params: { type: 'object', properties: { code: { type: 'string', enum: catalog.map((c) => c.code) } }, required: ['code'] } },
  }, async (request) => catalog.find((c) => c.code === request.params.code));
}
