import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { flattenResults, isRecord, nonEmptyString } from './auth-responses';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

export interface TwoFactorEnrolment {
  /** Base32 secret, for typing into an authenticator app by hand. */
  secret: string;
  otpauthUrl?: string;
  /** The otpauth URL as a PNG data URL. */
  qrCode?: string;
}

/** The email of the logged-in user, which the 2FA calls carry (spec §7). */
export function sessionEmail(): string {
  const email = useSession.getState().user?.email;
  if (!email) throw new Error(TWO_FACTOR_MESSAGES.missingEmail);
  return email;
}

/**
 * POST /auth/enable-2fa {email, password}: the server returns a secret (and its QR code); the state becomes
 * two-factor-required until a first code is verified (spec §4). The current password is asked (issue 20).
 */
export async function enableTwoFactor(password: string): Promise<TwoFactorEnrolment> {
  const body = await api.post<unknown>(
    '/auth/enable-2fa',
    { email: sessionEmail(), password },
    { credentialCheck: true },
  );
  const fields = isRecord(body) ? flattenResults(body) : {};
  const secret = nonEmptyString(fields.secret);
  if (!secret) throw new Error(TWO_FACTOR_MESSAGES.enableFailed);
  useSession.getState().requireTwoFactor(secret);
  const qrCode = nonEmptyString(fields.qrCode);
  return {
    secret,
    otpauthUrl: nonEmptyString(fields.otpauthUrl),
    // Only an image we can show inline; anything else is ignored rather than loaded.
    qrCode: qrCode?.startsWith('data:image/') ? qrCode : undefined,
  };
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
