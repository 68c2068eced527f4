import * as OTPAuth from 'otpauth';

const PERIOD_MS = 30_000;

/**
 * TOTP codes as an authenticator app would show them, for the server's rules (DESIGN §3):
 * ±1 step of 30 s, and each step accepted once. `next()` returns a code of a step not used yet
 * that the server accepts now, waiting for the clock only when no such step is in the window.
 */
export function authenticator(secretBase32: string) {
  const totp = new OTPAuth.TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_MS / 1000,
    secret: OTPAuth.Secret.fromBase32(secretBase32.replace(/\s+/g, '')),
  });
  let lastStep = -Infinity;
  return {
    async next(): Promise<string> {
      for (;;) {
        const now = Date.now();
        const step = Math.floor(now / PERIOD_MS);
        // The previous step is fine unless the server might read the code a step later.
        const earliest = now % PERIOD_MS < 25_000 ? step - 1 : step;
        const candidate = Math.max(lastStep + 1, earliest);
        if (candidate <= step + 1) {
          lastStep = candidate;
          return totp.generate({ timestamp: candidate * PERIOD_MS });
        }
        await new Promise((resolve) => setTimeout(resolve, (step + 1) * PERIOD_MS - now + 50));
      }
    },
    /** A 6-digit code the server refuses now (it matches no step in its window). */
    wrongCode(): string {
      const step = Math.floor(Date.now() / PERIOD_MS);
      const near = new Set(
        [-2, -1, 0, 1, 2].map((d) => totp.generate({ timestamp: (step + d) * PERIOD_MS })),
      );
      for (let n = 0; ; n += 1) {
        const candidate = String((123456 + n * 111111) % 1_000_000).padStart(6, '0');
        if (!near.has(candidate)) return candidate;
      }
    },
  };
}
