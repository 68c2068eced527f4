import { hash, verify } from '@node-rs/argon2';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const ARGON2 = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

// Verifying against this keeps an unknown email as slow as a wrong password (no user enumeration by timing).
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('kairos-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}

/**
 * The passwords most often found in public breaches, refused at registration, reset and change (issue 20):
 * the frequency-ranked list of `@zxcvbn-ts/language-common` (MIT; zxcvbn's list from the Xato corpus of
 * 10 million leaked passwords, about 49,000 entries, of which some 18,000 are 8 characters or more), plus a
 * few a trading platform's users pick.
 */
const COMMON = new Set(
  [
    ...zxcvbnCommon.dictionary['passwords-common'],
    ...`bitcoin1 bitcoin123 crypto123 ethereum1 binance1 trading1 trading123 kairos123 welcome2024 welcome2025
    welcome2026 password2024 password2025 password2026 summer2024 summer2025 winter2025`.split(/\s+/),
  ]
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p.length >= 8),
);

/** How many passwords the breached list refuses (those of the minimum length or more). */
export const COMMON_PASSWORD_COUNT = COMMON.size;

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
