// The routes schema validation and message transformation share (emqx_schema_validation_http_api
// and emqx_message_transformation_http_api at e5.8.9): list, append, replace, look up, delete,
// reorder, enable/disable, and an entry's metrics with their reset, under `/<base>` and
// `/<base>/<item>/{name}`. The two plugins add what is theirs.
import type { FastifyInstance } from 'fastify';
import type { Obj } from '../rules/values.ts';
import type { ChainEntry, MessageChain } from '../store/messaging/message-chain.ts';
import { FAILURE_ACTIONS, LOG_LEVELS } from '../store/messaging/schema-validation.ts';

const nameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 255 } } } as const;
const enableParams = {
  type: 'object', required: ['name', 'enable'],
  properties: { name: { type: 'string', maxLength: 255 }, enable: { type: 'boolean' } },
} as const;
const reorderBody = {
  type: 'object', required: ['order'], additionalProperties: false,
  properties: { order: { type: 'array', maxItems: 10_000, items: { type: 'string', maxLength: 255 } } },
} as const;

export interface ChainRoutes<T extends ChainEntry> {
  /** `schema_validations` or `message_transformations`. */
  base: string;
  /** `validation` or `transformation`. */
  item: string;
  chain: MessageChain<T> & { validate(body: Obj): T };
  /** The JSON schema of one entry in a request body. */
  body: Record<string, unknown>;
  /** An entry as answered (transformations answer their operations as written). */
  out?: (entry: T) => unknown;
}

type Named = { Params: { name: string } };

export function chainRoutes<T extends ChainEntry>(app: FastifyInstance, r: ChainRoutes<T>): void {
  const { chain } = r;
  const out = r.out ?? ((e: T) => e);
  const base = `/${r.base}`;
  const one = `${base}/${r.item}/:name`;

  app.get(base, async () => chain.list().map(out));

  app.post<{ Body: Obj }>(base, { schema: { body: r.body } }, async (request, reply) => {
    const created = await chain.insert(chain.validate(request.body));
    return reply.code(201).send(out(created));
  });

  app.put<{ Body: Obj }>(base, { schema: { body: r.body } }, async (request) => {
    chain.get(String(request.body.name));
    return out(await chain.update(chain.validate(request.body)));
  });

  app.post<{ Body: { order: string[] } }>(`${base}/reorder`, { schema: { body: reorderBody } }, async (request, reply) => {
    const problem = await chain.reorder(request.body.order);
    if (problem) return reply.code(400).send({ code: 'BAD_REQUEST', message: 'Bad request', ...problem });
    return reply.code(204).send();
  });

  app.get<Named>(one, { schema: { params: nameParams } }, async (request) => out(chain.get(request.params.name)));

  app.delete<Named>(one, { schema: { params: nameParams } }, async (request, reply) => {
    await chain.remove(request.params.name);
    return reply.code(204).send();
  });

  app.get<Named>(`${one}/metrics`, { schema: { params: nameParams } }, async (request) => chain.metrics(request.params.name));

  app.post<Named>(`${one}/metrics/reset`, { schema: { params: nameParams }, config: { noBody: true } }, async (request, reply) => {
    chain.resetMetrics(request.params.name);
    return reply.code(204).send();
  });

  app.post<{ Params: { name: string; enable: boolean } }>(`${one}/enable/:enable`, { schema: { params: enableParams }, config: { noBody: true } }, async (request, reply) => {
    await chain.setEnable(request.params.name, request.params.enable);
    return reply.code(204).send();
  });
}

/** The body fields validations and transformations share (fields(validation), fields(transformation)). */
export const entryProperties = {
  tags: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 255 } },
  description: { type: 'string', maxLength: 65535 },
  enable: { type: 'boolean' },
  name: { type: 'string', maxLength: 255 },
  // One filter or a list of them.
  topics: { anyOf: [{ type: 'string', maxLength: 65535 }, { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 65535 } }] },
  failure_action: { type: 'string', enum: FAILURE_ACTIONS },
  log_failure: {
    type: 'object', additionalProperties: false,
    properties: { level: { type: 'string', enum: LOG_LEVELS } },
  },
} as const;
