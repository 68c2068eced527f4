import type { PreferencesPatch } from '@kairos/contract';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/toast';
import { changeLanguage, i18n } from '../../../i18n';
import { errorMessage } from '../../../i18n/translate-message';
import { defaultCurrencyFor } from '../../../lib/format';
import { displayCurrency, isLanguage, usePreferences } from '../../../lib/preferences-store';
import { type PreferenceChange, applyingSavedPreferences } from '../../../lib/preferences-sync';
import { type Preferences, userSettingsQueryOptions } from './get-user-settings';
import { updateUserSettings } from './update-user-settings';

/*
 * Theme, language, currency and time zone live in two places: the browser (applied before the
 * first paint, kept while logged out) and the user's settings on the server. Logging in applies
 * the server's; registering saves the browser's; any change while logged in is saved
 * (lib/preferences-sync watches for them from the first render and hands them to
 * `savePreferenceChange`).
 */

function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Makes saved preferences the browser's, at once. */
export function applyPreferences(preferences: Preferences): Promise<void> {
  return applyingSavedPreferences(async () => {
    const store = usePreferences.getState();
    store.setTheme(preferences.theme);
    // The language's own currency stays "automatic", so switching language later still follows it.
    store.setCurrency(
      preferences.currency === defaultCurrencyFor(preferences.language) ? null : preferences.currency,
    );
    store.setTimezone(preferences.timezone);
    if (isLanguage(preferences.language) && preferences.language !== store.language) {
      await changeLanguage(preferences.language);
    }
  });
}

/** After login: the user's saved preferences win over what this browser had. */
export async function applyServerPreferences(queryClient: QueryClient): Promise<void> {
  try {
    await applyPreferences(await queryClient.fetchQuery({ ...userSettingsQueryOptions(), staleTime: 0 }));
  } catch {
    // Not worth blocking the login: the browser's preferences stay until the next try.
  }
}

/** The browser's current preferences as a settings update. */
export function browserPreferences(): PreferencesPatch {
  const { theme, language, currency, timezone } = usePreferences.getState();
  const zone = timezone ?? browserTimeZone();
  return {
    theme,
    language,
    currency: displayCurrency(language, currency) as Preferences['currency'],
    ...(zone ? { timezone: zone } : {}),
  };
}

/** After registration: a new account starts with what the visitor already chose here. */
export async function saveBrowserPreferences(queryClient: QueryClient): Promise<void> {
  try {
    queryClient.setQueryData(
      userSettingsQueryOptions().queryKey,
      await updateUserSettings(browserPreferences()),
    );
  } catch {
    // The server keeps its defaults; the browser keeps the visitor's choice.
  }
}

/** Queries the server answers in the saved currency and time zone (dashboard, portfolio). */
const SERVER_PREFERENCE_QUERIES = [['dashboard'], ['portfolio']];

/** Saves one change the logged-in user made; a failure is said in a toast (the change stays applied). */
export async function savePreferenceChange(
  queryClient: QueryClient,
  change: PreferenceChange,
): Promise<void> {
  try {
    queryClient.setQueryData(
      userSettingsQueryOptions().queryKey,
      await updateUserSettings(change as PreferencesPatch),
    );
    // The server converts amounts and cuts days in the saved currency and time zone.
    if (change.currency || change.timezone) {
      await Promise.all(
        SERVER_PREFERENCE_QUERIES.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    }
  } catch (error) {
    toast.error(i18n.t('common.preferencesSaveFailed'), { description: errorMessage(i18n.t, error) });
  }
}
