import { PASSWORD_MAX_LENGTH, VALIDATION_MESSAGES, passwordSchema } from '@kairos/contract';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { sessionEmail } from './enable-two-factor';

/** Signed in: the current password, then the new one twice (DESIGN §3, hardened). */
export const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, VALIDATION_MESSAGES.required).max(PASSWORD_MAX_LENGTH),
    password: passwordSchema,
    confirm_password: z.string().min(1, VALIDATION_MESSAGES.required),
  })
  .refine((form) => form.password === form.confirm_password, {
    message: VALIDATION_MESSAGES.passwordsMatch,
    path: ['confirm_password'],
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
