/** Spec §8: what the security settings say when a step fails (the server's reason goes below). */
export const TWO_FACTOR_MESSAGES = {
  missingEmail: 'Missing user email',
  enableFailed: 'Failed to enable 2FA',
  verificationFailed: '2FA verification failed',
  disableFailed: 'Failed to disable 2FA',
} as const;

export const PASSWORD_MESSAGES = {
  resetEmailFailed: 'Failed to send reset email',
  changeFailed: 'Failed to change password',
} as const;
