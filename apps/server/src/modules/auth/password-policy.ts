import { hash, verify } from '@node-rs/argon2';

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

/** The most common passwords of 8+ characters from public breach lists; refused at registration and change. */
const COMMON = new Set(
  `password 12345678 123456789 1234567890 qwertyuiop password1 password123 iloveyou1 sunshine1 princess1
  football1 baseball1 welcome1 abc12345 qwerty123 1q2w3e4r 1q2w3e4r5t qwe12345 zaq12wsx 11111111 00000000
  88888888 87654321 12341234 123123123 11223344 99999999 superman1 trustno1 passw0rd p@ssw0rd password!
  letmein1 dragon123 monkey123 master123 shadow123 michael1 jennifer1 computer1 whatever1 freedom1
  starwars1 qwertyui asdfghjk asdfghjkl zxcvbnm1 iloveyou changeme admin123 administrator welcome123
  sunshine princess football baseball superman starwars michelle jennifer computer whatever liverpool
  chocolate trustno1 qwerty12 password12 1234qwer qwer1234 a1b2c3d4 abcd1234 abcdefgh 123456789a
  bitcoin1 bitcoin123 crypto123 ethereum1 binance1 trading1 trading123 kairos123 letmein123 welcome2024
  welcome2025 welcome2026 password2024 password2025 password2026 summer2024 summer2025 winter2025`
    .split(/\s+/)
    .filter(Boolean),
);

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
