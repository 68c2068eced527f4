import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** Origin of the server under test. */
export function baseUrl(): string {
  return inject('baseUrl');
}

/** An absolute URL on the server under test: `appUrl('/bots?page=2')`. */
export function appUrl(pathname = '/'): string {
  return `${baseUrl()}${pathname.startsWith('/') ? pathname : `/${pathname}`}`;
}

/**
 * A made-up client address. The server trusts X-Forwarded-For, and its auth rate limits are
 * per IP: giving every test its own address keeps a long suite under them.
 */
export function fakeIp(): string {
  const [a = 1, b = 1, c = 1] = randomBytes(3);
  return `10.${a}.${b}.${Math.max(1, c)}`;
}

export function uniqueEmail(prefix = 'trader'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@e2e.test`;
}

/** Long enough and not on the server's list of common passwords. */
export const DEFAULT_PASSWORD = 'kairos-E2E-pass-7431';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** The server's envelope (DESIGN §2); `results` is whatever the call returns. */
export interface Envelope<T = unknown> {
  success: boolean;
  results: T;
  message?: string;
  error?: string;
}

/** One JSON call to the server; never throws on an error status (assert on `status`). */
export async function callApi<T = Envelope>(
  pathname: string,
  options: { method?: string; body?: unknown; token?: string; ip?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Forwarded-For': options.ip ?? fakeIp(),
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(appUrl(pathname), {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** The user object the server returns (spec §3). */
export interface ServerUser {
  id: string;
  email: string;
  role: 'user' | 'admin';
  isAdmin: boolean;
  useTwoFa: boolean;
  accountStatus: string;
  displayName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A registered user with a live session: what `newPage({ session })` needs. */
export interface TestUser {
  email: string;
  password: string;
  user: ServerUser;
  apiToken: string;
  refreshToken: string;
}

interface SessionResults {
  user: ServerUser;
  apiToken: string;
  refreshToken: string;
}

function expectStatus(response: ApiResponse, expected: number, what: string): void {
  if (response.status !== expected) {
    throw new Error(
      `${what}: expected HTTP ${expected}, got ${response.status} ${JSON.stringify(response.body)}`,
    );
  }
}

/** POST /auth/register with a fresh email (or the one given), then a login (registration opens no session). */
export async function registerUser(options: { email?: string; password?: string } = {}): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? DEFAULT_PASSWORD;
  const response = await callApi<Envelope<unknown>>('/auth/register', {
    body: { email, password, confirm_password: password },
  });
  expectStatus(response, 201, `register ${email}`);
  return loginUser(email, password);
}

/** POST /auth/login; fails unless the server logs the user in (pass `code` for a 2FA user). */
export async function loginUser(email: string, password: string, code?: string): Promise<TestUser> {
  const response = await callApi<Envelope<SessionResults>>('/auth/login', {
    body: code ? { email, password, code } : { email, password },
  });
  expectStatus(response, 200, `login ${email}`);
  if (!response.body.results.apiToken) throw new Error(`login ${email}: no token (2FA required?)`);
  const { user, apiToken, refreshToken } = response.body.results;
  return { email, password, user, apiToken, refreshToken };
}

/** The run's admin (KAIROS_ADMIN_EMAIL): registered by the first caller, logged in after that. */
export async function adminUser(): Promise<TestUser> {
  const email = inject('adminEmail');
  // Answers 201 whether or not the admin registered already (issue 20); the login says who is there.
  await callApi<Envelope<unknown>>('/auth/register', {
    body: {
      email,
      password: DEFAULT_PASSWORD,
      confirm_password: DEFAULT_PASSWORD,
      setupToken: inject('adminSetupToken'),
    },
  });
  return loginUser(email, DEFAULT_PASSWORD);
}
