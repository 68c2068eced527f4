import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { flattenResults, isRecord } from './auth-responses';
import { sessionEmail } from './enable-two-factor';

/** POST /auth/disable-2fa {email, code, password}: the user's 2FA flag becomes false (spec §4; issue 20). */
export async function disableTwoFactor({
  code,
  password,
}: {
  code: string;
  password: string;
}): Promise<void> {
  const body = await api.post<unknown>(
    '/auth/disable-2fa',
    { email: sessionEmail(), code: code.trim(), password },
    { credentialCheck: true },
  );
  const fields = isRecord(body) ? flattenResults(body) : {};
  const session = useSession.getState();
  const user = isRecord(fields.user) ? fields.user : session.user;
  session.setUser({ ...user, useTwoFa: false });
  session.clearTwoFactor();
}

export function useDisableTwoFactor() {
  return useMutation({ mutationFn: disableTwoFactor });
}
