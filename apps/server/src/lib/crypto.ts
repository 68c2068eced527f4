import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a sealed value lives: its table, column and row (issue 20). It is the value's AES-GCM associated data,
 * so a value copied into another column or row does not open there.
 */
export type SealedAt = { table: string; column: string; row: string };

/**
 * AES-256-GCM sealing of secrets at rest (exchange keys, TOTP secrets, strategy secrets, outbox mail, kept
 * answers). `v2:` values are bound to where they live; `v1:` values (before issue 20) are not, and open only
 * where no place is named — the start-up re-seal (modules/secrets) that turns every v1 value into v2.
 */
export type Sealer = {
  seal(plain: string, at: SealedAt): string;
  /** With `at`: a v2 value sealed there, nothing else. Without: a v1 value (unbound). */
  open(sealed: string, at?: SealedAt): string;
  /** A v1 value, bound to nothing, as written before issue 20: only the re-seal's tests write one. */
  sealUnbound(plain: string): string;
};

const V1 = 'v1';
const V2 = 'v2';

/** A sealed value that does not open: not one of ours, sealed under another key, or moved from its place. */
export class UnreadableSealedValueError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnreadableSealedValueError';
  }
}

const associatedData = (at: SealedAt) => Buffer.from(`kairos:${at.table}.${at.column}:${at.row}`, 'utf8');

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('master key must be 32 bytes');

  function encrypt(version: string, plain: string, aad?: Buffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    if (aad) cipher.setAAD(aad);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${version}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  function decrypt(payload: string, aad?: Buffer): string {
    const raw = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  return {
    seal: (plain, at) => encrypt(V2, plain, associatedData(at)),
    sealUnbound: (plain) => encrypt(V1, plain),
    open(sealed, at) {
      const cut = sealed.indexOf(':');
      const version = sealed.slice(0, cut);
      const payload = sealed.slice(cut + 1);
      if (cut < 0 || !payload || (version !== V1 && version !== V2))
        throw new UnreadableSealedValueError('unknown sealed format');
      if (at && version !== V2)
        throw new UnreadableSealedValueError(
          `a v1 sealed value in ${at.table}.${at.column}: it should have been re-sealed at start`,
        );
      if (!at && version !== V1)
        throw new UnreadableSealedValueError(
          'a v2 sealed value opens only at its place (table, column, row)',
        );
      try {
        return decrypt(payload, at && associatedData(at));
      } catch (e) {
        // A value moved from another place, or sealed under another key, fails GCM's authentication here.
        throw new UnreadableSealedValueError('the sealed value does not open here', { cause: e });
      }
    },
  };
}

/** KAIROS_MASTER_KEY, or a key generated once into `<dataDir>/master.key` (0600). */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured)
    return /^[0-9a-fA-F]{64}$/.test(configured)
      ? Buffer.from(configured, 'hex')
      : Buffer.from(configured, 'base64');
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; // another process created it first
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
}

/** An opaque bearer token with 256 bits of entropy. */
export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** High-entropy tokens need no slow hash: SHA-256 is enough to make a stolen table useless. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** `abcd…wxyz`: enough to recognise a key, never enough to use it. */
export function maskSecret(secret: string): string {
  if (secret.length <= 8) return '••••';
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}
