import { DEFAULT_PREFERENCES, LANGUAGES, type Preferences } from '@kairos/contract';
import { create } from 'zustand';
import { browserStorage } from './browser-storage';
import { defaultCurrencyFor } from './format';

export type Theme = Preferences['theme'];
/** The contract's languages, in the order the switchers list them. */
export const SUPPORTED_LANGUAGES = LANGUAGES;
export type Language = Preferences['language'];
export const DEFAULT_LANGUAGE: Language = DEFAULT_PREFERENCES.language;
export const DEFAULT_THEME: Theme = DEFAULT_PREFERENCES.theme;

/** Keys also read by the inline script in index.html, before the first paint. */
export const PREFERENCE_STORAGE_KEYS = {
  theme: 'theme',
  language: 'language',
  currency: 'currency',
  timezone: 'timezone',
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export function readStoredTheme(): Theme {
  return browserStorage.get(PREFERENCE_STORAGE_KEYS.theme) === 'light' ? 'light' : DEFAULT_THEME;
}

export function readStoredLanguage(): Language {
  const stored = browserStorage.get(PREFERENCE_STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** DESIGN §9: `<html data-theme="dark|light" class="dark">`, the class only when dark. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.setAttribute('data-theme', theme);
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

interface PreferencesState {
  theme: Theme;
  language: Language;
  /** The currency the user picked; null means "the language's default". */
  currency: string | null;
  /** IANA time zone for dates; null means the browser's own. */
  timezone: string | null;
  setTheme: (theme: Theme) => void;
  setLanguage: (language: Language) => void;
  setCurrency: (currency: string | null) => void;
  setTimezone: (timezone: string | null) => void;
}

export const usePreferences = create<PreferencesState>()((set) => ({
  theme: readStoredTheme(),
  language: readStoredLanguage(),
  currency: browserStorage.get(PREFERENCE_STORAGE_KEYS.currency),
  timezone: browserStorage.get(PREFERENCE_STORAGE_KEYS.timezone),
  setTheme: (theme) => {
    browserStorage.set(PREFERENCE_STORAGE_KEYS.theme, theme);
    applyTheme(theme);
    set({ theme });
  },
  setLanguage: (language) => {
    browserStorage.set(PREFERENCE_STORAGE_KEYS.language, language);
    set({ language });
  },
  setCurrency: (currency) => {
    browserStorage.set(PREFERENCE_STORAGE_KEYS.currency, currency);
    set({ currency });
  },
  setTimezone: (timezone) => {
    browserStorage.set(PREFERENCE_STORAGE_KEYS.timezone, timezone);
    set({ timezone });
  },
}));

/** USD for English and EUR for French, unless the user picked a currency (spec §1). */
export function displayCurrency(language: string, picked: string | null): string {
  return picked ?? defaultCurrencyFor(language);
}
