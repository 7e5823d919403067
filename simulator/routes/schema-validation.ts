// EMQX module emqx_schema_validation_http_api (e5.8.9): /schema_validations, the ordered
// validations that check messages in the broker's message path (store/messaging/schema-validation.ts).
import type { FastifyInstance } from 'fastify';
import { CHECK_TYPES } from '../store/messaging/schema-validation.ts';
import { chainRoutes, entryProperties } from './message-chain.ts';

const check = {
  type: 'object', required: ['type'], additionalProperties: false,
  properties: {
    type: { type: 'string', enum: CHECK_TYPES },
    sql: { type: 'string', maxLength: 65535 },
    schema: { type: 'string', maxLength: 255 },
    message_type: { type: 'string', maxLength: 255 },
  },
} as const;

const validation = {
  type: 'object', required: ['name', 'topics', 'strategy', 'failure_action', 'checks'], additionalProperties: false,
  properties: {
    ...entryProperties,
    strategy: { type: 'string', enum: ['any_pass', 'all_pass'] },
    checks: { type: 'array', maxItems: 1000, items: check },
  },
} as const;

export default async function schemaValidation(app: FastifyInstance): Promise<void> {
  chainRoutes(app, { base: 'schema_validations', item: 'validation', chain: app.store.schemaValidations, body: validation });
}
