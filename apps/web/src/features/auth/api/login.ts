import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { flattenResults, isRecord, nonEmptyString } from './auth-responses';

/** Spec §8. */
export const LOGIN_MESSAGES = {
  failed: 'Login failed',
  malformed: 'Login failed: malformed response',
  twoFactorRequired: '2FA code required',
} as const;

export interface LoginInput {
  email: string;
  password: string;
  code?: string;
}

export type LoginOutcome =
  | { status: 'authenticated'; user: Record<string, unknown>; token: string; refreshToken: string | null }
  | { status: 'two-factor-required' };

/** POST /auth/login {email, password, code?}: the code is trimmed and sent only if non-empty (spec §5). */
export function loginRequestBody({ email, password, code }: LoginInput): LoginInput {
  const trimmed = code?.trim();
  return trimmed ? { email, password, code: trimmed } : { email, password };
}

function mentionsTwoFactor(message: string | undefined): boolean {
  return message !== undefined && message.toLowerCase().includes('2fa');
}

/**
 * Spec §4: 2FA is needed when the response flags requires2FA, when its message mentions 2FA,
 * or when the user has 2FA enabled and no code was sent. Otherwise it must carry a user and a token.
 */
export function readLoginResponse(body: unknown, codeSent: boolean): LoginOutcome {
  if (!isRecord(body)) throw new Error(LOGIN_MESSAGES.malformed);
  const fields = flattenResults(body);
  const message = nonEmptyString(fields.message) ?? nonEmptyString(body.error);
  if (body.success === false) {
    if (mentionsTwoFactor(message)) return { status: 'two-factor-required' };
    throw new Error(message ?? LOGIN_MESSAGES.failed);
  }
  const user = fields.user;
  if (fields.requires2FA === true || mentionsTwoFactor(message)) return { status: 'two-factor-required' };
  if (!codeSent && isRecord(user) && user.useTwoFa === true) return { status: 'two-factor-required' };
  const token = nonEmptyString(fields.apiToken);
  if (!token || !isRecord(user)) throw new Error(LOGIN_MESSAGES.malformed);
  return { status: 'authenticated', user, token, refreshToken: nonEmptyString(fields.refreshToken) ?? null };
}

export async function login(input: LoginInput): Promise<LoginOutcome> {
  const requestBody = loginRequestBody(input);
  const session = useSession.getState();
  let outcome: LoginOutcome;
  try {
    outcome = readLoginResponse(
      // A wrong password or code is a refusal shown on the form, not a session that ended.
      await api.post<unknown>('/auth/login', requestBody, { credentialCheck: true }),
      requestBody.code !== undefined,
    );
  } catch (error) {
    // A server may refuse with an error status whose message asks for the code.
    if (error instanceof Error && mentionsTwoFactor(error.message)) {
      outcome = { status: 'two-factor-required' };
      // A code was sent and refused ('Invalid 2FA code'): stay on the code step and say why.
      if (requestBody.code !== undefined) {
        session.requireTwoFactor();
        throw error;
      }
    } else throw error instanceof Error && error.message ? error : new Error(LOGIN_MESSAGES.failed);
  }
  if (outcome.status === 'two-factor-required') {
    // The API client keeps any apiToken it sees; a half-finished login must not count as one.
    session.setToken(null);
    session.requireTwoFactor();
    return outcome;
  }
  session.setSession({ user: outcome.user, token: outcome.token, refreshToken: outcome.refreshToken });
  return outcome;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
