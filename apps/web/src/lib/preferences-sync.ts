import { displayCurrency, usePreferences } from './preferences-store';
import { useSession } from './session-store';

/** A change of the browser's preferences, as the account's settings take it (PUT /user/settings). */
export interface PreferenceChange {
  theme?: 'dark' | 'light';
  language?: string;
  currency?: string;
  timezone?: string;
}

type PreferenceState = ReturnType<typeof usePreferences.getState>;

let applying = 0;

/** Runs `work` (applying the account's own preferences) without it counting as a change to save. */
export async function applyingSavedPreferences<T>(work: () => Promise<T>): Promise<T> {
  applying += 1;
  try {
    return await work();
  } finally {
    applying -= 1;
  }
}

/** What changed between two states of the preference store; the currency is the one displayed. */
export function changedPreferences(state: PreferenceState, previous: PreferenceState): PreferenceChange {
  const change: PreferenceChange = {};
  if (state.theme !== previous.theme) change.theme = state.theme;
  if (state.language !== previous.language) change.language = state.language;
  const currency = displayCurrency(state.language, state.currency);
  if (currency !== displayCurrency(previous.language, previous.currency)) change.currency = currency;
  if (state.timezone !== previous.timezone && state.timezone) change.timezone = state.timezone;
  return change;
}

/**
 * Calls `save` with every preference change a logged-in user makes (header switches or Settings),
 * from the first render on. Returns the unsubscribe.
 */
export function watchPreferenceChanges(save: (change: PreferenceChange) => void): () => void {
  return usePreferences.subscribe((state, previous) => {
    if (applying > 0 || !useSession.getState().isAuthenticated) return;
    const change = changedPreferences(state, previous);
    if (Object.keys(change).length > 0) save(change);
  });
}
