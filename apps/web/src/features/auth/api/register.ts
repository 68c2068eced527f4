import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { flattenResults, isRecord, nonEmptyString } from './auth-responses';

/** Spec §8. */
export const REGISTER_MESSAGES = {
  invalidResponse: 'Invalid response from server',
  failed: 'Registration failed',
} as const;

export interface RegisterInput {
  email: string;
  password: string;
  confirm_password: string;
  /** The first admin's setup token (KAIROS_ADMIN_SETUP_TOKEN, or the one in the server's log). */
  setupToken?: string;
  /** The token of the admin's invite link the page was opened from (`/register?invite=…`; issue 20). */
  inviteToken?: string;
}

export type RegisterOutcome = { status: 'authenticated' } | { status: 'registered' };

/** The server may log the new user in at once (user + apiToken) or ask them to log in. */
export function readRegisterResponse(body: unknown): {
  token?: string;
  refreshToken?: string;
  user?: Record<string, unknown>;
} {
  if (!isRecord(body) || typeof body.success !== 'boolean')
    throw new Error(REGISTER_MESSAGES.invalidResponse);
  if (!body.success)
    throw new Error(nonEmptyString(body.message) ?? nonEmptyString(body.error) ?? REGISTER_MESSAGES.failed);
  const fields = flattenResults(body);
  const user = isRecord(fields.user)
    ? fields.user
    : isRecord(body.results) && 'email' in body.results
      ? body.results
      : undefined;
  return { token: nonEmptyString(fields.apiToken), refreshToken: nonEmptyString(fields.refreshToken), user };
}

/** POST /auth/register {email, password, confirm_password, setupToken?, inviteToken?} (spec §5, §7; issue 20). */
export async function register(input: RegisterInput): Promise<RegisterOutcome> {
  const { email, password, confirm_password } = input;
  const setupToken = input.setupToken?.trim();
  const inviteToken = input.inviteToken?.trim();
  let body: unknown;
  try {
    body = await api.post<unknown>('/auth/register', {
      email,
      password,
      confirm_password,
      ...(setupToken ? { setupToken } : {}),
      ...(inviteToken ? { inviteToken } : {}),
    });
  } catch (error) {
    throw error instanceof Error && error.message ? error : new Error(REGISTER_MESSAGES.failed);
  }
  const { token, refreshToken, user } = readRegisterResponse(body);
  const session = useSession.getState();
  if (token && user) {
    session.setSession({ user, token, refreshToken: refreshToken ?? null });
    return { status: 'authenticated' };
  }
  // Registration alone is not a login: drop any token the client picked up on the way.
  if (session.token && !session.user) session.setToken(null);
  return { status: 'registered' };
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
