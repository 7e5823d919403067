// The JWT authenticator (emqx_authn_jwt), verified by `jose`: HMAC secrets (optionally Base64),
// a PEM public key (RS/PS/ES), or keys fetched from a JWKS endpoint and refreshed every
// `refresh_interval` seconds; the token comes from the password or the username; `exp`/`nbf`
// (on the simulator's clock) and `verify_claims` (with placeholders) are checked; `is_superuser`
// and the `acl` claim are handed back to the caller. Signature checks are not written here.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { render } from './auth-common.ts';
import { callHttp } from './auth-http.ts';

type Json = Record<string, any>;

export type JwtResult =
  | { result: 'ignore' }
  | { result: 'deny' }
  | { result: 'allow'; superuser: boolean; acl: unknown; exp: number | null };

// The algorithms each kind of key may verify, so a token cannot choose another family (an HMAC
// token checked against a public key taken as a secret, or `none`).
const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
const PUBLIC_KEY_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

const jwksCache = new Map<string, { at: number; keys: JWTVerifyGetKey | null }>();

/** The endpoint's key set, fetched again after `refresh_interval`; null when it has none usable. */
async function jwksKeys(config: Json, now: number): Promise<JWTVerifyGetKey | null> {
  const cached = jwksCache.get(config.endpoint);
  if (cached && now - cached.at < (config.refresh_interval ?? 300) * 1000) return cached.keys;
  // Fetched with the authenticator's headers and TLS options (callHttp), not jose's own fetch.
  const answer = await callHttp({ url: config.endpoint, method: 'get', headers: config.headers ?? {}, request_timeout: '5s' }, {});
  let keys: JWTVerifyGetKey | null = null;
  try {
    // callHttp reads `result`; a JWKS document is read from its raw body instead.
    if (Array.isArray(answer.body?.keys)) keys = createLocalJWKSet(answer.body as { keys: [] });
  } catch {
    keys = null;
  }
  jwksCache.set(config.endpoint, { at: now, keys });
  return keys;
}

type Verifier = { key: Uint8Array | KeyObject | JWTVerifyGetKey; algorithms: string[] };

/** The key the config names, or null when it has none usable (the token is then denied). */
async function verifierOf(config: Json, now: number): Promise<Verifier | null> {
  if (config.use_jwks === true) {
    const keys = await jwksKeys(config, now);
    return keys && { key: keys, algorithms: PUBLIC_KEY_ALGORITHMS };
  }
  if (config.algorithm === 'hmac-based') {
    const secret = String(config.secret ?? '');
    return { key: config.secret_base64_encoded ? Buffer.from(secret, 'base64') : Buffer.from(secret), algorithms: HMAC_ALGORITHMS };
  }
  try {
    return { key: createPublicKey(String(config.public_key)), algorithms: PUBLIC_KEY_ALGORITHMS };
  } catch {
    return null;
  }
}

/** Checks a client's JWT against the authenticator config. */
export async function checkJwt(config: Json, vars: { username: string | null; clientid: string; password: string | null; peerhost: string }, nowMs: number): Promise<JwtResult> {
  const token = config.from === 'username' ? vars.username : vars.password;
  // Something that is not a compact JWS at all is not this authenticator's to judge.
  if (!token || token.split('.').length !== 3) return { result: 'ignore' };
  const verifier = await verifierOf(config, nowMs);
  if (!verifier) return { result: 'deny' };
  let payload: JWTPayload;
  try {
    // jose checks the signature, the algorithm against the key, and exp/nbf at `currentDate`.
    payload = (await jwtVerify(token, verifier.key, { algorithms: verifier.algorithms, currentDate: new Date(nowMs) })).payload;
  } catch {
    return { result: 'deny' };
  }
  for (const [claim, template] of Object.entries((config.verify_claims ?? {}) as Record<string, string>)) {
    const expected = render(String(template), { username: vars.username, clientid: vars.clientid, password: vars.password, peerhost: vars.peerhost });
    if (payload[claim] === undefined || String(payload[claim]) !== expected) return { result: 'deny' };
  }
  return {
    result: 'allow',
    superuser: payload.is_superuser === true || payload.is_superuser === 'true',
    acl: payload[config.acl_claim_name ?? 'acl'],
    exp: typeof payload.exp === 'number' ? payload.exp * 1000 : null,
  };
}
