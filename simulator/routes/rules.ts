// EMQX emqx_rule_engine_api: rules, rule_test, rule_events, rule_engine (part 2 §5).
import type { FastifyInstance } from 'fastify';

export default async function rules(_app: FastifyInstance): Promise<void> {}
