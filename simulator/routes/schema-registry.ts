// EMQX emqx_schema_registry_http_api: /schema_registry and /schema_registry_external (part 2 §8):
// schemas compiled on create/update (400 with the compiler's reason), 201 on create, deletion
// refused while a rule's SQL still calls the schema, and the Confluent registries by name.
import type { FastifyInstance } from 'fastify';
import { refuseUnknownFields, rootField, unionMember } from '../store/config/schema-check.ts';
import { SCHEMA_TYPES, type ExternalRegistry, type SchemaType } from '../store/integration/schema-registry.ts';

const schemaProperties = {
  type: { type: 'string', enum: SCHEMA_TYPES },
  source: { type: 'string', minLength: 1, maxLength: 1048576 },
  description: { type: 'string', maxLength: 65535 },
} as const;

const nameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 255 } } } as const;

const externalProperties = {
  type: { type: 'string', enum: ['confluent'] },
  url: { type: 'string', minLength: 1, maxLength: 4096 },
  auth: {
    anyOf: [
      { type: 'string', enum: ['none'] },
      {
        type: 'object', required: ['mechanism', 'username', 'password'],
        properties: { mechanism: { type: 'string', enum: ['basic'] }, username: { type: 'string', maxLength: 1024 }, password: { type: 'string', maxLength: 1024 } },
      },
    ],
  },
} as const;

type SchemaBody = { name: string; type: SchemaType; source: string; description?: string };

/** Ids of the rules whose SQL calls schema_decode/encode/check with this schema name. */
function rulesUsing(sqls: { id: string; sql: string }[], name: string): string[] {
  const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const call = new RegExp(`schema_(decode|encode|check)\\s*\\(\\s*['"]${quoted}['"]`, 'i');
  return sqls.filter((r) => call.test(r.sql)).map((r) => r.id);
}

export default async function schemaRegistry(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const registry = store.schemaRegistry;
  // emqx_schema_registry_schema.erl api_schema/1 (v5.5.1 to 6.2.2): the union member of the body's
  // `type` among the release's schema structs (schema_registry.schemas of its config tree), with
  // `name` on POST ("post_" ++ Type); emqx_schema_registry_http_api.erl schema("/schema_registry_external/registry/:name")
  // (e5.8.9 to 6.2.2): external_registry_type(), the confluent struct. A type the release lacks is
  // left to the store's own check.
  const refuseUnknown = (root: 'schemas' | 'external', body: Record<string, unknown>, extra: string[] = []) => {
    const member = unionMember(rootField(store.profile.version, 'schema_registry', root), root === 'external' ? { type: 'confluent', ...body } : body, ['type']);
    if (member) refuseUnknownFields(member, body, extra);
  };
  store.rules.schemas = (name) => registry.codec(name);

  app.get('/schema_registry', async () => registry.list());

  app.post<{ Body: SchemaBody }>('/schema_registry', {
    schema: { body: { type: 'object', required: ['name', 'type', 'source'], properties: { name: { type: 'string', maxLength: 1024 }, ...schemaProperties } } },
  }, async (request, reply) => {
    refuseUnknown('schemas', request.body, ['name']);
    return reply.code(201).send(await registry.create(request.body));
  });

  app.get<{ Params: { name: string } }>('/schema_registry/:name', { schema: { params: nameParams } }, async (request) => registry.get(request.params.name));

  app.put<{ Params: { name: string }; Body: Omit<SchemaBody, 'name'> }>('/schema_registry/:name', {
    schema: { params: nameParams, body: { type: 'object', required: ['type', 'source'], properties: { name: { type: 'string', maxLength: 1024 }, ...schemaProperties } } },
  }, async (request) => {
    refuseUnknown('schemas', request.body);
    return registry.update(request.params.name, request.body);
  });

  app.delete<{ Params: { name: string } }>('/schema_registry/:name', { schema: { params: nameParams } }, async (request, reply) => {
    await registry.remove(request.params.name, rulesUsing(store.rules.list(), request.params.name));
    return reply.code(204).send();
  });

  app.get('/schema_registry_external', async () => registry.listExternal());

  app.post<{ Body: Partial<ExternalRegistry> & { name: string } }>('/schema_registry_external', {
    schema: { body: { type: 'object', required: ['name', 'url'], additionalProperties: false, properties: { name: { type: 'string', maxLength: 1024 }, ...externalProperties } } },
  }, async (request, reply) => reply.code(201).send(await registry.createExternal(request.body)));

  app.get<{ Params: { name: string } }>('/schema_registry_external/registry/:name', { schema: { params: nameParams } }, async (request) => registry.getExternal(request.params.name));

  app.put<{ Params: { name: string }; Body: Partial<ExternalRegistry> }>('/schema_registry_external/registry/:name', {
    schema: { params: nameParams, body: { type: 'object', required: ['url'], properties: externalProperties } },
  }, async (request) => {
    refuseUnknown('external', request.body);
    return registry.updateExternal(request.params.name, request.body);
  });

  app.delete<{ Params: { name: string } }>('/schema_registry_external/registry/:name', { schema: { params: nameParams } }, async (request, reply) => {
    await registry.removeExternal(request.params.name);
    return reply.code(204).send();
  });
}
