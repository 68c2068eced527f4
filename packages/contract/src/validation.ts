// The forms' limits and messages, apart from their schemas (forms.ts): the contract's read schemas use them, and
// a screen that shows money need not build the login and register forms to load them (issue 21).

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

/** A 2FA recovery code as shown (`abcde-fghij`), typed with or without its dash, in either case (issue 20). */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

/** A decimal as a person types it, written as the API takes it: "12,5" → "12.5", ".5" → "0.5". */
export const decimalText = (value: string) => value.trim().replace(',', '.').replace(/^\./, '0.');
