import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { withNewPassword } from './new-password';

export const resetPasswordFormSchema = withNewPassword({});
export type ResetPasswordFormValues = z.infer<typeof resetPasswordFormSchema>;

/**
 * POST /auth/change-pass {email, password, confirm_password, token} with the token of the reset
 * mail. The server ends every session of the account, so this browser's ends too (its theme and
 * language stay: this is not a logout).
 */
export async function resetPassword(
  link: { email: string; token: string },
  values: ResetPasswordFormValues,
): Promise<void> {
  await api.post<unknown>(
    '/auth/change-pass',
    {
      email: link.email,
      token: link.token,
      password: values.password,
      confirm_password: values.confirm_password,
    },
    { credentialCheck: true },
  );
  useSession.getState().clear();
}

export function useResetPassword(link: { email: string; token: string }) {
  return useMutation({ mutationFn: (values: ResetPasswordFormValues) => resetPassword(link, values) });
}
