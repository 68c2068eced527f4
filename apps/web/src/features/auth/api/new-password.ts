import { VALIDATION_MESSAGES, passwordSchema } from '@kairos/contract';
import { z } from 'zod';

interface NewPasswordPair {
  password: string;
  confirm_password: string;
}

function passwordsMatch(form: NewPasswordPair): boolean {
  return form.password === form.confirm_password;
}

/** A form that sets a password: the new one (spec §5 rules) typed twice, plus `fields`. */
export function withNewPassword<Shape extends z.ZodRawShape>(fields: Shape) {
  return z
    .object({
      ...fields,
      password: passwordSchema,
      confirm_password: z.string().min(1, VALIDATION_MESSAGES.required),
    })
    .refine((form) => passwordsMatch(form as NewPasswordPair), {
      message: VALIDATION_MESSAGES.passwordsMatch,
      path: ['confirm_password'],
    });
}
