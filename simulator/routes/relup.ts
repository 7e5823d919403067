// EMQX module emqx_mgmt_api_relup (v5.8.x; removed by 5.10): hot upgrade, answered as a broker
// with no relup package installed answers. Status per running node is `idle` with an empty
// history; the package is not found; an upgrade is refused. An upload is checked for the
// package name (`emqx_relup-<vsn>.tar.gz`) and otherwise refused: the simulator has no release
// to upgrade, so nothing is ever installed.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { uploadedFile, uploadPlugin } from '../plugins/upload.ts';

const nodeParams = { type: 'object', required: ['node'], properties: { node: { type: 'string', maxLength: 256 } } } as const;
const NOT_INSTALLED = 'No relup package is installed';
const MAX_PACKAGE_BYTES = 512 * 1024 * 1024;

export default async function relup(app: FastifyInstance): Promise<void> {
  const { store } = app;
  await uploadPlugin(app, MAX_PACKAGE_BYTES);

  // get_upgrade_status/0: emqx_relup_main is not loaded, so status idle and no history.
  const status = (node: string) => {
    const info = store.cluster.info(node);
    return {
      node, role: info?.role ?? 'core', live_connections: info?.live_connections ?? 0,
      current_vsn: store.profile.version, status: 'idle', upgrade_history: [],
    };
  };
  const known = (node: string) => {
    if (!store.cluster.names().includes(node)) throw apiError(404, 'NOT_FOUND', `Node not found: ${node}`);
    return node;
  };

  app.get('/relup/status', async () => store.cluster.names().filter((n) => store.cluster.info(n)?.node_status !== 'stopped').map(status));
  app.get<{ Params: { node: string } }>('/relup/status/:node', { schema: { params: nodeParams } }, async (request) => status(known(request.params.node)));

  app.get('/relup/package', async () => {
    throw apiError(404, 'NOT_FOUND', NOT_INSTALLED);
  });
  app.delete('/relup/package', async (_request, reply) => reply.code(204).send());

  // ?ASSERT_PKG_READY comes before the node is looked up.
  app.post('/relup/upgrade', { config: { noBody: true } }, async () => {
    throw apiError(400, 'BAD_REQUEST', NOT_INSTALLED);
  });
  app.post<{ Params: { node: string } }>('/relup/upgrade/:node', { schema: { params: nodeParams }, config: { noBody: true } }, async () => {
    throw apiError(400, 'BAD_REQUEST', NOT_INSTALLED);
  });

  app.post('/relup/package/upload', { schema: { consumes: ['multipart/form-data'], body: { type: 'object' } } }, async (request) => {
    const part = uploadedFile(request.body, 'plugin');
    if (!part) throw apiError(400, 'BAD_FORM_DATA', 'form-data should be plugin=@packagename-vsn.tar.gz;type=application/x-gzip');
    // assert_relup_pkg_name/1: `emqx_relup-` and a version.
    const [name, vsn] = [part.filename.slice(0, part.filename.indexOf('-')), part.filename.slice(part.filename.indexOf('-') + 1)];
    if (part.filename.indexOf('-') < 0 || name !== 'emqx_relup' || vsn === '') throw apiError(400, 'BAD_REQUEST', `Invalid relup package name: ${part.filename}`);
    throw apiError(400, 'BAD_PLUGIN_INFO', `${part.filename}: not a hot upgrade package for this release`);
  });
}
