import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_COUNT, isCommonPassword } from './password-policy';

describe('the breached-password list', () => {
  it('holds well over ten thousand passwords of eight characters or more', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThan(10_000);
  });

  it('refuses common passwords whatever their case, and lets a passphrase through', () => {
    for (const p of ['password', 'Qazwsxedc', 'JORDAN23', 'trustno1', 'bitcoin123']) {
      expect(isCommonPassword(p)).toBe(true);
    }
    expect(isCommonPassword('correct-horse-battery-staple')).toBe(false);
  });
});
