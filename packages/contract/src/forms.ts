import { z } from 'zod';
import { fitsLedger } from './decimal';

/**
 * Form validation shared by the web forms and the server (spec §5).
 * Messages are the spec's English text, word for word; the web uses them as i18n keys.
 */
export const VALIDATION_MESSAGES = {
  required: 'This field is required',
  email: 'Please enter a valid email address',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password must be at most 128 characters',
  passwordsMatch: 'Passwords must match',
  amount: 'Please enter a valid amount',
  price: 'Please enter a valid price',
  twoFactorCode: 'Please enter the 6-digit code',
  startingBalance: 'Starting balance must be between 0 and 1,000,000,000,000',
} as const;

/** The largest simulated starting balance of a paper account, in USDT. */
export const MAX_PAPER_BALANCE = 1e12;

export type ValidationMessage = (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES];

export const PASSWORD_MIN_LENGTH = 8;
/** Hardened (DESIGN §3): long inputs are refused before hashing. */
export const PASSWORD_MAX_LENGTH = 128;
export const TWO_FACTOR_CODE_LENGTH = 6;

const POSITIVE_DECIMAL = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const SIX_DIGITS = /^\d{6}$/;
/** A 2FA recovery code as shown (`abcde-fghij`), typed with or without its dash, in either case (issue 20). */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

/** A non-empty string after trimming. */
export const required = z.string().trim().min(1, VALIDATION_MESSAGES.required);

export const emailSchema = required.pipe(z.email(VALIDATION_MESSAGES.email));

export const passwordSchema = z
  .string()
  .min(1, VALIDATION_MESSAGES.required)
  .min(PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES.passwordMin)
  .max(PASSWORD_MAX_LENGTH, VALIDATION_MESSAGES.passwordMax);

export const twoFactorCodeSchema = required.regex(SIX_DIGITS, VALIDATION_MESSAGES.twoFactorCode);

/** A decimal as a person types it, written as the API takes it: "12,5" → "12.5", ".5" → "0.5". */
export const decimalText = (value: string) => value.trim().replace(',', '.').replace(/^\./, '0.');

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
