// The access-check scenario of issue #35 on a running simulator: a built-in database
// authenticator with sensor-2 and sensor-3 (password `sensor-pass-1`), and a built-in database
// authorization rule denying sensor-2 publish on `secret/#`, ahead of the default file source.
// Also the list of profiles the simulator knows, so profile loops pick up new releases.
import { PROFILES } from '../../simulator/store/profile.ts';
import { request } from './simulator.ts';

export const SENSOR_PASSWORD = 'sensor-pass-1';

/** Every profile the simulator exports (PROFILES), in the shape of its command-line flags. */
export const simulatorProfiles = (): { emqxVersion: string; edition: string }[] => PROFILES.map(({ version, edition }) => ({ emqxVersion: version, edition }));

/** Sets the scenario up through the API; throws on any refused call. */
export async function setUpAccessScenario(baseUrl: string, token: string): Promise<void> {
  const calls: [string, string, unknown][] = [
    ['POST', '/api/v5/authentication', { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } }],
    ['POST', '/api/v5/authentication/password_based:built_in_database/users', { user_id: 'sensor-2', password: SENSOR_PASSWORD }],
    ['POST', '/api/v5/authentication/password_based:built_in_database/users', { user_id: 'sensor-3', password: SENSOR_PASSWORD }],
    ['POST', '/api/v5/authorization/sources', { type: 'built_in_database', enable: true }],
    ['POST', '/api/v5/authorization/sources/built_in_database/rules/users', [{ username: 'sensor-2', rules: [{ permission: 'deny', action: 'publish', topic: 'secret/#' }] }]],
  ];
  for (const [method, path, body] of calls) {
    const res = await request(baseUrl, method, path, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  }
}
