import { emailSchema } from '@kairos/contract';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';

export const forgotPasswordFormSchema = z.object({ email: emailSchema });
export type ForgotPasswordFormValues = z.infer<typeof forgotPasswordFormSchema>;

/** POST /auth/forgot-pass {email}: the answer is the same whether or not the account exists. */
export async function requestPasswordReset({ email }: ForgotPasswordFormValues): Promise<void> {
  await api.post<unknown>('/auth/forgot-pass', { email });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
