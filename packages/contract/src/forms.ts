import { z } from 'zod';
import { fitsLedger } from './decimal';
import {
  MAX_PAPER_BALANCE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECOVERY_CODE_PATTERN,
  VALIDATION_MESSAGES,
  decimalText,
} from './validation';

/**
 * Form validation shared by the web forms and the server (spec §5); their limits and messages are validation.ts's.
 */
const POSITIVE_DECIMAL = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const SIX_DIGITS = /^\d{6}$/;

/** A non-empty string after trimming. */
export const required = z.string().trim().min(1, VALIDATION_MESSAGES.required);

export const emailSchema = required.pipe(z.email(VALIDATION_MESSAGES.email));

export const passwordSchema = z
  .string()
  .min(1, VALIDATION_MESSAGES.required)
  .min(PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES.passwordMin)
  .max(PASSWORD_MAX_LENGTH, VALIDATION_MESSAGES.passwordMax);

export const twoFactorCodeSchema = required.regex(SIX_DIGITS, VALIDATION_MESSAGES.twoFactorCode);

/**
 * A strictly positive decimal typed by a person: "12.5", "12,5" (French keyboards) or ".5".
 * The output stays a decimal string: money is never a float.
 */
function positiveDecimalSchema(message: string) {
  return required.transform(decimalText).pipe(
    z
      .string()
      .regex(POSITIVE_DECIMAL, message)
      .refine((value) => Number(value) > 0 && fitsLedger(value), message),
  );
}

export const amountSchema = positiveDecimalSchema(VALIDATION_MESSAGES.amount);
export const priceSchema = positiveDecimalSchema(VALIDATION_MESSAGES.price);
/** A paper account's starting balance as typed: an amount, up to MAX_PAPER_BALANCE. */
export const paperBalanceSchema = amountSchema.refine(
  (value) => Number(value) <= MAX_PAPER_BALANCE,
  VALIDATION_MESSAGES.startingBalance,
);

export const loginFormSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, VALIDATION_MESSAGES.required),
  /** Only asked once the server says 2FA is needed; trimmed and sent only if non-empty (spec §5). */
  code: z
    .string()
    .trim()
    .optional()
    .refine(
      (code) => !code || SIX_DIGITS.test(code) || RECOVERY_CODE_PATTERN.test(code),
      VALIDATION_MESSAGES.twoFactorCode,
    ),
});

export const registerFormSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    confirm_password: z.string().min(1, VALIDATION_MESSAGES.required),
    /** The first admin only: the setup token from the server's log (empty: none). */
    setupToken: z.string().trim().max(200).optional(),
  })
  .refine((form) => form.password === form.confirm_password, {
    message: VALIDATION_MESSAGES.passwordsMatch,
    path: ['confirm_password'],
  });

export type LoginFormInput = z.input<typeof loginFormSchema>;
export type LoginFormValues = z.output<typeof loginFormSchema>;
export type RegisterFormInput = z.input<typeof registerFormSchema>;
export type RegisterFormValues = z.output<typeof registerFormSchema>;
