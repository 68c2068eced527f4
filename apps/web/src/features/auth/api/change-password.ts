import { PASSWORD_MAX_LENGTH, VALIDATION_MESSAGES } from '@kairos/contract';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { sessionEmail } from './enable-two-factor';
import { withNewPassword } from './new-password';

/** Signed in: the current password, then the new one twice (DESIGN §3, hardened). */
export const changePasswordFormSchema = withNewPassword({
  currentPassword: z.string().min(1, VALIDATION_MESSAGES.required).max(PASSWORD_MAX_LENGTH),
});
export type ChangePasswordFormValues = z.infer<typeof changePasswordFormSchema>;

/** POST /auth/change-pass {email, password, confirm_password, currentPassword}; other sessions end. */
export async function changePassword(values: ChangePasswordFormValues): Promise<void> {
  await api.post<unknown>(
    '/auth/change-pass',
    {
      email: sessionEmail(),
      password: values.password,
      confirm_password: values.confirm_password,
      currentPassword: values.currentPassword,
    },
    { credentialCheck: true },
  );
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
