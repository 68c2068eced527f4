import type { Preferences, PreferencesPatch } from './auth';

// No zod here: the web's first screen (theme, language, the stored session) reads these before any
// form code loads. The schemas in auth.ts are built from them.

export const THEMES = ['dark', 'light'] as const;
export const LANGUAGES = ['en-US', 'fr-FR'] as const;
/** The currencies amounts can be shown in. */
export const DISPLAY_CURRENCIES = ['USD', 'EUR'] as const;

/** Spec §3 defaults, except the theme: §1 and §9 make dark the product default (docs/decisions.md). */
export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'dark',
  language: 'en-US',
  currency: 'USD',
  timezone: 'UTC',
  notifications: {
    email: true,
    push: true,
    sms: false,
    tradingAlerts: true,
    priceAlerts: true,
    newsAlerts: false,
  },
};

/** `patch` over `preferences`: what it names changes, notifications one by one; the rest stays. */
export function mergePreferences(preferences: Preferences, patch: PreferencesPatch): Preferences {
  return {
    ...preferences,
    ...patch,
    notifications: { ...preferences.notifications, ...patch.notifications },
  };
}
