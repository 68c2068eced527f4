import { z } from 'zod';
import {
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  RECOVERY_CODE_PATTERN,
  VALIDATION_MESSAGES,
} from './validation';
import { DEFAULT_PREFERENCES, DISPLAY_CURRENCIES, LANGUAGES, mergePreferences, THEMES } from './preferences';

const M = VALIDATION_MESSAGES;

/** A string that is present and non-blank; a missing field says 'This field is required'. */
const present = () => z.string({ error: M.required }).trim().min(1, M.required);

export const apiEmail = present()
  .max(254, M.email)
  .pipe(z.email(M.email))
  .transform((e) => e.toLowerCase());
export const apiPassword = z
  .string({ error: M.required })
  .min(1, M.required)
  .min(PASSWORD_MIN_LENGTH, M.passwordMin)
  .max(PASSWORD_MAX_LENGTH, M.passwordMax);
/** Login takes any stored password (no length rule: older passwords stay usable), capped for hashing cost. */
const loginPassword = z
  .string({ error: M.required })
  .min(1, M.required)
  .max(PASSWORD_MAX_LENGTH, M.passwordMax);
export const apiTotpCode = present().regex(/^\d{6}$/, M.twoFactorCode);
/** Login's second step: a 6-digit TOTP code or one of the ten recovery codes (issue 20). */
export const apiLoginCode = present().refine(
  (c) => /^\d{6}$/.test(c) || RECOVERY_CODE_PATTERN.test(c),
  M.twoFactorCode,
);

export const roleSchema = z.enum(['user', 'admin']);
export const accountStatusSchema = z.enum(['active', 'suspended']);

/** The user object of spec §3. */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  isAdmin: z.boolean(),
  useTwoFa: z.boolean(),
  accountStatus: accountStatusSchema,
  displayName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const sessionTokensSchema = z.object({
  user: userSchema,
  apiToken: z.string(),
  refreshToken: z.string(),
  expiresAt: z.string(),
});

export const registerBody = z
  .object({
    email: apiEmail,
    password: apiPassword,
    confirm_password: z.string({ error: M.required }),
    /** Only for the first admin (`KAIROS_ADMIN_EMAIL`): the one-time token the server printed at start. */
    setupToken: z.string().trim().max(200).optional(),
    /** Issue 20: the token of an admin's invite link (`/register?invite=…`), needed while registration is closed. */
    inviteToken: z.string().trim().max(200).optional(),
  })
  .refine((b) => b.password === b.confirm_password, {
    message: M.passwordsMatch,
    path: ['confirm_password'],
  });

export const loginBody = z.object({
  email: apiEmail,
  password: loginPassword,
  /** Trimmed; an empty code counts as none (spec §5). */
  code: z
    .string()
    .trim()
    .optional()
    .transform((c) => (c ? c : undefined))
    .pipe(apiLoginCode.optional()),
});

export const loginResponse = z.union([
  z.object({ success: z.literal(true), results: sessionTokensSchema }),
  z.object({
    success: z.literal(true),
    results: z.object({ requires2FA: z.literal(true) }),
    message: z.string(),
  }),
]);

export const emailBody = z.object({ email: apiEmail });
export const emailCodeBody = z.object({ email: apiEmail, code: apiTotpCode });
/** The current password, which every change of 2FA asks for (issue 20). */
const currentPassword = loginPassword;
/** `POST /auth/enable-2fa`: starting enrolment needs the current password. */
export const enableTwoFaBody = z.object({ email: apiEmail, password: currentPassword });
/** `POST /auth/disable-2fa`: a code and the current password. */
export const disableTwoFaBody = z.object({ email: apiEmail, code: apiTotpCode, password: currentPassword });
export const refreshBody = z.object({
  refreshToken: z.string({ error: 'No refresh token available' }).min(1, 'No refresh token available'),
});

/** One signed-in device: a session family (a sign-in and its refreshes), as `GET /auth/sessions` lists it. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  /** The family's first sign-in. */
  createdAt: z.string(),
  /** The last sign-in or refresh of the family. */
  lastUsedAt: z.string().nullable(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  /** The session the request was made with ("This device"). */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListResponse = z.object({
  success: z.literal(true),
  results: z.array(sessionInfoSchema),
});
export const sessionIdParams = z.object({ id: z.uuid('Session not found') });

/** `POST /auth/verify-2fa`: 2FA is on; the ten one-time recovery codes, shown this once. */
export const verifyTwoFaResponse = z.object({
  success: z.literal(true),
  results: sessionTokensSchema.extend({ recoveryCodes: z.array(z.string()) }),
});

export const enableTwoFaResponse = z.object({
  success: z.literal(true),
  results: z.object({ secret: z.string(), otpauthUrl: z.string(), qrCode: z.string() }),
  secret: z.string(),
});

/**
 * Hardened (DESIGN §3): either the token from the forgot-password mail, or a signed-in
 * session plus the current password.
 */
export const changePasswordBody = z
  .object({
    email: apiEmail,
    password: apiPassword,
    confirm_password: z.string({ error: M.required }),
    token: z.string().min(1).max(200).optional(),
    currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH).optional(),
    current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH).optional(),
  })
  .refine((b) => b.password === b.confirm_password, { message: M.passwordsMatch, path: ['confirm_password'] })
  .refine((b) => b.token || b.currentPassword || b.current_password, {
    message: 'A reset token or your current password is required',
    path: ['currentPassword'],
  });

export const messageResponse = z.object({ success: z.literal(true), message: z.string() });

export const preferencesSchema = z.object({
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  currency: z.enum(DISPLAY_CURRENCIES),
  timezone: z.string().min(1).max(64),
  notifications: z.object({
    email: z.boolean(),
    push: z.boolean(),
    sms: z.boolean(),
    tradingAlerts: z.boolean(),
    priceAlerts: z.boolean(),
    newsAlerts: z.boolean(),
  }),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesUpdate = preferencesSchema
  .extend({ notifications: preferencesSchema.shape.notifications.partial() })
  .partial()
  .refine((p) => !p.timezone || isValidTimeZone(p.timezone), {
    message: 'Unknown time zone',
    path: ['timezone'],
  });
/** A change of some preferences (PUT /user/settings): any subset, notifications one by one. */
export type PreferencesPatch = z.infer<typeof preferencesUpdate>;

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const profileUpdate = z.object({
  displayName: z.string().trim().max(80).nullable().optional(),
});

/**
 * Preferences as stored or sent, over the defaults (so older ones gain new settings); anything that is
 * not a valid set of preferences gives the defaults.
 */
export function readPreferences(stored: unknown): Preferences {
  const patch = (typeof stored === 'object' && stored !== null ? stored : {}) as PreferencesPatch;
  const parsed = preferencesSchema.safeParse(mergePreferences(DEFAULT_PREFERENCES, patch));
  return parsed.success ? parsed.data : DEFAULT_PREFERENCES;
}

/** `GET`/`PUT /user/profile`: the user and their preferences. */
export const userProfileSchema = userSchema.extend({ preferences: preferencesSchema });
export type UserProfile = z.infer<typeof userProfileSchema>;
