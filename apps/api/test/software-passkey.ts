import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey in software, for API tests: it makes the responses a browser's authenticator
 * would (`none` attestation, an ES256 key), so that registration and sign-in are checked by
 * the real library end to end. The browser flow uses Chromium's virtual authenticator.
 */

/* ---------- the little CBOR WebAuthn needs (RFC 8949): integers, byte and text strings, maps ---------- */

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const bytes = Buffer.alloc(3);
  bytes[0] = (major << 5) | 25;
  bytes.writeUInt16BE(length, 1);
  return bytes;
}

type Cbor = number | string | Buffer | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const entries = [...value.entries()].flatMap(([key, item]) => [cbor(key), cbor(item)]);
  return Buffer.concat([head(5, value.size), ...entries]);
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** Flags of the authenticator data: the user was present and verified; attested credential data follows. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED = 0x40;

export interface SoftwarePasskey {
  credentialId: string;
  /** The COSE public key, base64url, as the server keeps it. */
  publicKey: string;
  /** The response to registration options (`navigator.credentials.create`). */
  register(options: { challenge: string }): Record<string, unknown>;
  /** The response to sign-in options (`navigator.credentials.get`). */
  signIn(options: { challenge: string }): Record<string, unknown>;
}

export function softwarePasskey(rpId: string, origin: string): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = (publicKey as KeyObject).export({ format: 'jwk' });
  const cose = cbor(
    new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const id = randomBytes(16);
  let counter = 0;

  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const authData = (flags: number, attested?: Buffer) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  };

  return {
    credentialId: b64url(id),
    publicKey: b64url(cose),
    register({ challenge }) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, id, cose]);
      const attestation = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData(USER_PRESENT | USER_VERIFIED | ATTESTED, attested)],
        ]),
      );
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', challenge)),
          attestationObject: b64url(attestation),
          transports: ['internal'],
        },
      };
    },
    signIn({ challenge }) {
      counter += 1;
      const data = authData(USER_PRESENT | USER_VERIFIED);
      const client = clientData('webauthn.get', challenge);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: null,
        },
      };
    },
  };
}
