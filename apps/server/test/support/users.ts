import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}-${Date.now().toString(36)}@example.com`;
}

export const GOOD_PASSWORD = 'correct-horse-battery-staple';

/**
 * The admin setup token every test app starts with (KAIROS_ADMIN_SETUP_TOKEN, set by `createTestApp`):
 * `registerUser` sends it, so registering the app's KAIROS_ADMIN_EMAIL makes the admin as an operator
 * would; any other email ignores it. test/auth/admin-setup.test.ts covers the seat without it.
 */
export const TEST_ADMIN_SETUP_TOKEN = 'kst_test-harness-admin-setup-token';

export type Session = {
  email: string;
  apiToken: string;
  refreshToken: string;
  user: Record<string, unknown>;
};

/** Registers through the API, then logs in, as a person would (registration opens no session: issue 20). */
export async function registerUser(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = GOOD_PASSWORD,
): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { email, password, confirm_password: password, setupToken: TEST_ADMIN_SETUP_TOKEN },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  if (login.statusCode !== 200)
    throw new Error(`login after register failed: ${login.statusCode} ${login.body}`);
  const { results } = login.json();
  return { email, apiToken: results.apiToken, refreshToken: results.refreshToken, user: results.user };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The code an authenticator app would show for this secret at this time. */
export function totpCode(secret: string, at = Date.now()): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  }).generate({ timestamp: at });
}
