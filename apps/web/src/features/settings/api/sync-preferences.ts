import type { QueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/toast';
import { changeLanguage, i18n } from '../../../i18n';
import { errorMessage } from '../../../i18n/translate-message';
import { defaultCurrencyFor } from '../../../lib/format';
import { displayCurrency, isLanguage, usePreferences } from '../../../lib/preferences-store';
import { useSession } from '../../../lib/session-store';
import { type Preferences, userSettingsQueryOptions } from './get-user-settings';
import { type PreferencesPatch, updateUserSettings } from './update-user-settings';

/*
 * Theme, language, currency and time zone live in two places: the browser (applied before the
 * first paint, kept while logged out) and the user's settings on the server. Logging in applies
 * the server's; registering saves the browser's; any change while logged in is saved.
 */

let applying = false;

function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Makes saved preferences the browser's, at once. */
export async function applyPreferences(preferences: Preferences): Promise<void> {
  applying = true;
  try {
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
  } finally {
    applying = false;
  }
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

type PreferenceState = ReturnType<typeof usePreferences.getState>;

/** What the user changed between two states of the preference store, as a settings update. */
export function changedPreferences(state: PreferenceState, previous: PreferenceState): PreferencesPatch {
  const patch: PreferencesPatch = {};
  if (state.theme !== previous.theme) patch.theme = state.theme;
  if (state.language !== previous.language) patch.language = state.language;
  const currency = displayCurrency(state.language, state.currency);
  if (currency !== displayCurrency(previous.language, previous.currency)) {
    patch.currency = currency as Preferences['currency'];
  }
  if (state.timezone !== previous.timezone && state.timezone) patch.timezone = state.timezone;
  return patch;
}

/** Saves every preference the logged-in user changes (header switches or Settings). Returns the unsubscribe. */
export function startPreferencesSync(queryClient: QueryClient): () => void {
  return usePreferences.subscribe((state, previous) => {
    if (applying || !useSession.getState().isAuthenticated) return;
    const patch = changedPreferences(state, previous);
    if (Object.keys(patch).length === 0) return;
    updateUserSettings(patch).then(
      (saved) => queryClient.setQueryData(userSettingsQueryOptions().queryKey, saved),
      (error: unknown) =>
        toast.error(i18n.t('settings.saveFailed'), { description: errorMessage(i18n.t, error) }),
    );
  });
}
