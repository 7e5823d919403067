// What a clientid trace shows of authentication and authorization, as EMQX writes it
// (emqx_authn_chains.erl, emqx_authz.erl, emqx_access_control.erl, emqx_trace_formatter.erl at
// v5.5.1, e5.8.9 and 6.2.2): the console's access check reads these lines to name the source
// that decided. Over MQTT 5 on the WebSocket listener, as the console connects, on every profile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MqttClient } from 'mqtt';
import { SENSOR_PASSWORD, setUpAccessScenario, simulatorProfiles } from '../helpers/access-scenario.ts';
import { connectMqtt, endMqtt, login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';

async function traceLog(sim: RunningSimulator, token: string, name: string): Promise<string> {
  await sim.app.store.traces.flush();
  const res = await request(sim.baseUrl, 'GET', `/api/v5/trace/${name}/log?bytes=100000&position=0`, { token });
  return (res.json as { items: string }).items;
}

const publishQos1 = (c: MqttClient, topic: string) =>
  new Promise<number>((resolve) => c.publish(topic, 'probe', { qos: 1 }, (err, packet) => resolve((err as { code?: number } | undefined)?.code ?? (packet as { reasonCode?: number } | undefined)?.reasonCode ?? 0)));

for (const { emqxVersion, edition } of simulatorProfiles()) {
  test(`${emqxVersion} ${edition}: the trace names built_in_database as the source denying sensor-2, allowing sensor-3, and the authenticator refusing a wrong password`, async () => {
    const sim = await startSimulator({ app: { emqxVersion, edition } as never });
    try {
      const token = await login(sim.baseUrl);
      await setUpAccessScenario(sim.baseUrl, token);
      const url = `ws://127.0.0.1:${sim.ws}/mqtt`;
      for (const id of ['sensor-2', 'sensor-3', 'sensor-4']) {
        assert.is((await request(sim.baseUrl, 'POST', '/api/v5/trace', { token, body: { name: `t-${id}`, type: 'clientid', clientid: id } })).status, 200);
      }
      const denied = await connectMqtt(url, { clientId: 'sensor-2', username: 'sensor-2', password: SENSOR_PASSWORD, protocolVersion: 5 });
      assert.is(await publishQos1(denied, 'secret/a'), 0x87);
      await endMqtt(denied);
      const allowed = await connectMqtt(url, { clientId: 'sensor-3', username: 'sensor-3', password: SENSOR_PASSWORD, protocolVersion: 5 });
      assert.ok((await publishQos1(allowed, 'secret/a')) < 0x80);
      await endMqtt(allowed);
      const refused = await connectMqtt(url, { clientId: 'sensor-4', username: 'sensor-2', password: 'wrong-pass', protocolVersion: 5 }).then(() => 0, (err) => (err as { code?: number }).code);
      assert.is(refused, 0x86);

      const two = await traceLog(sim, token, 't-sensor-2');
      assert.match(two, /\[AUTHN\] sensor-2@127\.0\.0\.1:\d+ msg: authenticator_result, authenticator: password_based:built_in_database, result: \{ok,#\{is_superuser => false\}\}/);
      assert.match(two, /\] msg: authorization_permission_denied, peername: 127\.0\.0\.1:\d+, clientid: sensor-2, topic: secret\/a, username: sensor-2, action: PUBLISH\(Q1,R0\), source: built_in_database/);
      const three = await traceLog(sim, token, 't-sensor-3');
      // The file source's `{allow, all}` decides for sensor-3 after the built-in database passes it on.
      assert.match(three, /msg: authorization_permission_allowed, .*source: file/);
      assert.match(three, /\[AUTHZ\] sensor-3@127\.0\.0\.1:\d+ msg: authorization_(module_)?nomatch, action: PUBLISH\(Q1,R0\), (authorize_type: built_in_database, )?module: emqx_authz_mnesia, topic: secret\/a, username: sensor-3/);
      if (emqxVersion !== '5.5.1') assert.match(two, /\[AUTHZ\] sensor-2@\S+ msg: authorization_matched_deny, action: PUBLISH\(Q1,R0\), authorize_type: built_in_database, module: emqx_authz_mnesia/);
      const four = await traceLog(sim, token, 't-sensor-4');
      assert.match(four, /\[AUTHN\] sensor-4@\S+ msg: authenticator_result, authenticator: password_based:built_in_database, result: \{error,bad_username_or_password\}/);
    } finally {
      await sim.close();
    }
  });
}

test.run();
