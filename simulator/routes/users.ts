// EMQX module emqx_dashboard_api (users part): /users and /users/{username}/change_pwd.
import type { FastifyInstance } from 'fastify';

const username = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[_a-zA-Z0-9]*$' } as const;
const password = { type: 'string', maxLength: 100 } as const;
const description = { type: 'string', maxLength: 1000 } as const;
const userParams = { type: 'object', required: ['username'], properties: { username: { type: 'string', maxLength: 100 } } };
// The response schema is a second fence: only these two fields can ever leave (S4).
const user = { type: 'object', properties: { username: { type: 'string' }, description: { type: 'string' } } };

interface UserParams {
  username: string;
}

export default async function users(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/users', { schema: { response: { 200: { type: 'array', items: user } } } }, async () => store.users.list());

  app.post<{ Body: { username: string; password: string; description?: string } }>('/users', {
    schema: {
      body: {
        type: 'object',
        required: ['username', 'password'],
        additionalProperties: false,
        properties: { username, password, description },
      },
      response: { 200: user },
    },
  }, async (request) => {
    const { username: name, password: secret, description: text = '' } = request.body;
    return store.users.create(name, secret, text);
  });

  app.put<{ Params: UserParams; Body: { description: string } }>('/users/:username', {
    schema: {
      params: userParams,
      body: { type: 'object', required: ['description'], additionalProperties: false, properties: { description } },
      response: { 200: user },
    },
  }, async (request) => store.users.update(request.params.username, request.body.description));

  app.delete<{ Params: UserParams }>('/users/:username', { schema: { params: userParams } }, async (request, reply) => {
    await store.users.remove(request.params.username, request.principal?.name ?? null);
    return reply.code(204).send();
  });

  app.post<{ Params: UserParams; Body: { old_pwd: string; new_pwd: string } }>('/users/:username/change_pwd', {
    schema: {
      params: userParams,
      body: {
        type: 'object',
        required: ['old_pwd', 'new_pwd'],
        additionalProperties: false,
        properties: { old_pwd: password, new_pwd: password },
      },
    },
  }, async (request, reply) => {
    await store.users.changePassword(request.params.username, request.body.old_pwd, request.body.new_pwd);
    return reply.code(204).send();
  });
}
