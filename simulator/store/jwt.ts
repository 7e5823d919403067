// The JWT authenticator (emqx_authn_jwt) with node:crypto only: HMAC secrets (optionally Base64),
// a PEM public key (RS/PS/ES), or keys fetched from a JWKS endpoint and refreshed every
// `refresh_interval` seconds; the token comes from the password or the username; `exp`/`nbf`
// and `verify_claims` (with placeholders) are checked; `is_superuser` and the `acl` claim are
// handed back to the caller.
import { createHmac, createPublicKey, timingSafeEqual, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { render } from './auth-common.ts';
import { callHttp } from './auth-http.ts';

type Json = Record<string, any>;

export type JwtResult =
  | { result: 'ignore' }
  | { result: 'deny' }
  | { result: 'allow'; superuser: boolean; acl: unknown; exp: number | null };

const HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };

function b64url(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

const jwksCache = new Map<string, { at: number; keys: Json[] }>();

async function jwksKeys(config: Json, now: number): Promise<Json[]> {
  const cached = jwksCache.get(config.endpoint);
  if (cached && now - cached.at < (config.refresh_interval ?? 300) * 1000) return cached.keys;
  const answer = await callHttp({ url: config.endpoint, method: 'get', headers: config.headers ?? {}, request_timeout: '5s' }, {});
  // callHttp reads `result`; a JWKS document is read from its raw body instead.
  const keys = Array.isArray(answer.body?.keys) ? (answer.body?.keys as Json[]) : [];
  jwksCache.set(config.endpoint, { at: now, keys });
  return keys;
}

function verifySignature(alg: string, key: KeyObject | Buffer, signingInput: string, signature: Buffer): boolean {
  const bits = alg.slice(2);
  const hash = HASH[bits];
  if (!hash) return false;
  if (alg.startsWith('HS')) {
    if (!Buffer.isBuffer(key)) return false;
    const expected = createHmac(hash, key).update(signingInput).digest();
    return expected.length === signature.length && timingSafeEqual(expected, signature);
  }
  if (Buffer.isBuffer(key)) return false;
  try {
    if (alg.startsWith('RS')) return cryptoVerify(hash, Buffer.from(signingInput), key, signature);
    if (alg.startsWith('PS')) return cryptoVerify(hash, Buffer.from(signingInput), { key, padding: 6, saltLength: Number(bits) / 8 }, signature);
    if (alg.startsWith('ES')) return cryptoVerify(hash, Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
  return false;
}

/** Checks a client's JWT against the authenticator config. */
export async function checkJwt(config: Json, vars: { username: string | null; clientid: string; password: string | null; peerhost: string }, nowMs: number): Promise<JwtResult> {
  const token = config.from === 'username' ? vars.username : vars.password;
  if (!token) return { result: 'ignore' };
  const parts = token.split('.');
  if (parts.length !== 3) return { result: 'ignore' };
  let header: Json;
  let payload: Json;
  try {
    header = JSON.parse(b64url(parts[0]).toString('utf8')) as Json;
    payload = JSON.parse(b64url(parts[1]).toString('utf8')) as Json;
  } catch {
    return { result: 'deny' };
  }
  const alg = String(header.alg ?? '');
  const signingInput = `${parts[0]}.${parts[1]}`;
  const signature = b64url(parts[2]);
  let ok = false;
  if (config.use_jwks === true) {
    const keys = await jwksKeys(config, nowMs);
    for (const jwk of keys) {
      if (header.kid !== undefined && jwk.kid !== undefined && jwk.kid !== header.kid) continue;
      try {
        if (verifySignature(alg, createPublicKey({ key: jwk as never, format: 'jwk' }), signingInput, signature)) {
          ok = true;
          break;
        }
      } catch {
        // A key of another type: try the next one.
      }
    }
  } else if (config.algorithm === 'hmac-based') {
    const secret = config.secret_base64_encoded ? Buffer.from(String(config.secret), 'base64') : Buffer.from(String(config.secret));
    ok = alg.startsWith('HS') && verifySignature(alg, secret, signingInput, signature);
  } else {
    try {
      ok = !alg.startsWith('HS') && verifySignature(alg, createPublicKey(String(config.public_key)), signingInput, signature);
    } catch {
      ok = false;
    }
  }
  if (!ok) return { result: 'deny' };
  const now = Math.floor(nowMs / 1000);
  if (typeof payload.exp === 'number' && payload.exp <= now) return { result: 'deny' };
  if (typeof payload.nbf === 'number' && payload.nbf > now) return { result: 'deny' };
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
