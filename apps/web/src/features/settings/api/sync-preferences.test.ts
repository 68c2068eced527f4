import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { createTestQueryClient, loginAs } from '../../../testing/render';
import { mockFetch } from '../../../testing/fetch-mock';
import { usePreferences } from '../../../lib/preferences-store';
import { DEFAULT_PREFERENCES } from '@kairos/contract';
import { changedPreferences, watchPreferenceChanges } from '../../../lib/preferences-sync';
import {
  applyPreferences,
  applyServerPreferences,
  browserPreferences,
  savePreferenceChange,
} from './sync-preferences';
import { updateUserSettings } from './update-user-settings';

describe('preferences between the browser and the account', () => {
  it('applies saved preferences at once: theme, language, currency, time zone', async () => {
    await applyPreferences({
      ...DEFAULT_PREFERENCES,
      theme: 'light',
      language: 'fr-FR',
      currency: 'USD',
      timezone: 'Europe/Paris',
    });
    expect(usePreferences.getState()).toMatchObject({
      theme: 'light',
      language: 'fr-FR',
      currency: 'USD',
      timezone: 'Europe/Paris',
    });
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(i18n.language).toBe('fr-FR');
  });

  it("keeps the language's own currency automatic", async () => {
    await applyPreferences({ ...DEFAULT_PREFERENCES, language: 'fr-FR', currency: 'EUR' });
    expect(usePreferences.getState().currency).toBeNull();
  });

  it('makes the server win after login', async () => {
    mockFetch((request) =>
      request.path === '/user/settings'
        ? { body: { success: true, results: { ...DEFAULT_PREFERENCES, theme: 'light' } } }
        : undefined,
    );
    loginAs();
    await applyServerPreferences(createTestQueryClient());
    expect(usePreferences.getState().theme).toBe('light');
  });

  it('sends the displayed currency with a language change', () => {
    const before = { ...usePreferences.getState(), language: 'en-US' as const, currency: null };
    expect(changedPreferences({ ...before, language: 'fr-FR' }, before)).toEqual({
      language: 'fr-FR',
      currency: 'EUR',
    });
    expect(changedPreferences({ ...before, theme: 'light' }, { ...before, theme: 'dark' })).toEqual({
      theme: 'light',
    });
    expect(browserPreferences()).toMatchObject({ theme: 'dark', language: 'en-US', currency: 'USD' });
  });

  it('saves what a logged-in user changes, and nothing while logged out', async () => {
    const { requests } = mockFetch(() => ({ body: { success: true, results: DEFAULT_PREFERENCES } }));
    const queryClient = createTestQueryClient();
    const stop = watchPreferenceChanges((change) => void savePreferenceChange(queryClient, change));
    usePreferences.getState().setTheme('light');
    expect(requests).toHaveLength(0);
    loginAs();
    usePreferences.getState().setTheme('dark');
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toMatchObject({ method: 'PUT', path: '/user/settings', body: { theme: 'dark' } });
    // Applying the account's own preferences is not a change to save.
    await applyPreferences({ ...DEFAULT_PREFERENCES, theme: 'light' });
    expect(requests).toHaveLength(1);
    stop();
  });
});

describe('saving settings', () => {
  it('sends one PUT at a time, in the order of the changes', async () => {
    const answers: Array<() => void> = [];
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((resolve) => {
            bodies.push(JSON.parse(String(init.body)));
            answers.push(() =>
              resolve(new Response(JSON.stringify({ success: true, results: DEFAULT_PREFERENCES }))),
            );
          }),
      ),
    );
    const theme = updateUserSettings({ theme: 'light' });
    const language = updateUserSettings({ language: 'fr-FR' });
    await waitFor(() => expect(bodies).toHaveLength(1));
    answers[0]?.();
    await theme;
    await waitFor(() => expect(bodies).toHaveLength(2));
    answers[1]?.();
    await language;
    expect(bodies).toEqual([{ theme: 'light' }, { language: 'fr-FR' }]);
  });
});
