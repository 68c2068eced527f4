import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { flattenResults, isRecord, nonEmptyString } from './auth-responses';
import { sessionEmail } from './enable-two-factor';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/**
 * POST /auth/verify-2fa {email, code}: returns the user (2FA on) and a fresh token, which replace
 * the session's, and clears the two-factor requirement (spec §4); and the ten recovery codes, shown once.
 */
export async function verifyTwoFactor(code: string): Promise<string[]> {
  const body = await api.post<unknown>(
    '/auth/verify-2fa',
    { email: sessionEmail(), code: code.trim() },
    { credentialCheck: true },
  );
  const fields = isRecord(body) ? flattenResults(body) : {};
  const token = nonEmptyString(fields.apiToken);
  if (!token || !isRecord(fields.user)) throw new Error(TWO_FACTOR_MESSAGES.verificationFailed);
  useSession.getState().setSession({
    user: fields.user,
    token,
    refreshToken: nonEmptyString(fields.refreshToken) ?? null,
  });
  return Array.isArray(fields.recoveryCodes)
    ? fields.recoveryCodes.filter((c): c is string => typeof c === 'string')
    : [];
}

/** `onVerified` runs even though the enrolment form is gone by then (2FA is on). */
export function useVerifyTwoFactor({ onVerified }: { onVerified?: (recoveryCodes: string[]) => void } = {}) {
  return useMutation({ mutationFn: verifyTwoFactor, onSuccess: onVerified });
}
