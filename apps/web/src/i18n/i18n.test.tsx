import { apiMessage, VALIDATION_MESSAGES } from '@kairos/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePreferences } from '../lib/preferences-store';
import { mockFetch } from '../testing/fetch-mock';
import { loginAs, renderApp } from '../testing/render';
import { changeLanguage, i18n } from './index';
import enUS from './locales/en-US';
import enUSMessages from './locales/en-US.messages';
import { ENGLISH_TEXTS } from './english-texts';
import frFR from './locales/fr-FR';
import { ApiError } from '../lib/api-error';
import { errorMessage, translateMessage } from './translate-message';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, nested]) => keys(nested, prefix ? `${prefix}.${key}` : key));
}

describe('translations', () => {
  it('has every English text in French, and nothing more', () => {
    expect(keys(frFR.translation).sort()).toEqual(keys(ENGLISH_TEXTS).sort());
    expect(Object.keys(frFR.messages).sort()).toEqual(Object.keys(enUSMessages).sort());
  });

  it('has no empty text', () => {
    // Message keys are whole sentences (they may hold dots): their values are checked as they are.
    for (const text of [...Object.values(enUSMessages), ...Object.values(frFR.messages)]) {
      expect(text.trim()).not.toBe('');
    }
    for (const bundle of [enUS, frFR.translation]) {
      for (const key of keys(bundle))
        expect(
          String(
            key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], bundle),
          ).trim(),
          key,
        ).not.toBe('');
    }
  });

  it('keeps the validation messages of spec §5 word for word in English and translates them in French', async () => {
    const spec = [
      'This field is required',
      'Please enter a valid email address',
      'Password must be at least 8 characters',
      'Passwords must match',
      'Please enter a valid amount',
      'Please enter a valid price',
    ];
    expect(Object.values(VALIDATION_MESSAGES)).toEqual(expect.arrayContaining(spec));
    for (const message of Object.values(VALIDATION_MESSAGES)) {
      expect(translateMessage(i18n.t, message)).toBe(message);
    }
    await changeLanguage('fr-FR');
    for (const message of Object.values(VALIDATION_MESSAGES)) {
      const french = translateMessage(i18n.t, message);
      expect(french, message).not.toBe(message);
      expect(french).toBe(frFR.messages[message]);
    }
    expect(errorMessage(i18n.t, new ApiError('HTTP error! status: 503', 503, null))).toBe(
      'Erreur HTTP\u202f! Statut\u00a0: 503',
    );
    expect(translateMessage(i18n.t, 'Something the server said')).toBe('Something the server said');
  });

  it('says a server message built with values in the user language, its numbers written that language’s way', async () => {
    const conflict = (code: string, message: string, params?: Record<string, string>) =>
      new ApiError(message, 409, { success: false, error: code, message, params });
    const pairParams = { bot: 'Trend 1', pair: 'BTC/USDT' };
    const english = apiMessage('FUTURES_PAIR_TAKEN', pairParams);
    expect(errorMessage(i18n.t, conflict('FUTURES_PAIR_TAKEN', english, pairParams))).toBe(english);
    const shareParams = { taken: '80.00', left: '20.00' };
    const share = apiMessage('OVER_ALLOCATED', shareParams);
    expect(errorMessage(i18n.t, conflict('OVER_ALLOCATED', share, shareParams))).toBe(share);
    await changeLanguage('fr-FR');
    expect(errorMessage(i18n.t, conflict('FUTURES_PAIR_TAKEN', english, pairParams))).toBe(
      'Le bot «\u00a0Trend 1\u00a0» opère déjà sur BTC/USDT avec ce compte futures, qui ne tient qu’une position par symbole\u00a0: arrêtez-le d’abord ou utilisez un autre compte',
    );
    expect(errorMessage(i18n.t, conflict('OVER_ALLOCATED', share, shareParams))).toBe(
      'Ce compte est déjà alloué à 80,00\u00a0% à d’autres bots\u00a0: il reste au plus 20,00\u00a0%',
    );
    // The code and params say it: a reworded English message is still said in French.
    expect(errorMessage(i18n.t, conflict('OVER_ALLOCATED', 'Over allocated', shareParams))).toBe(
      'Ce compte est déjà alloué à 80,00\u00a0% à d’autres bots\u00a0: il reste au plus 20,00\u00a0%',
    );
    // Without the values the message needs, or with a code this build does not know: shown as sent.
    expect(errorMessage(i18n.t, conflict('OVER_ALLOCATED', 'Over allocated'))).toBe('Over allocated');
    expect(errorMessage(i18n.t, conflict('SOMETHING_NEW', 'Something new'))).toBe('Something new');
  });

  it('says how long a rate limit lasts, its unit kept on the figure’s line', async () => {
    const limited = (seconds: number) =>
      new ApiError('Too many requests', 429, { success: false, error: 'RATE_LIMITED' }, seconds);
    await changeLanguage('fr-FR');
    expect(errorMessage(i18n.t, limited(40))).toMatch(/Réessayez dans 40\u00a0s\.$/);
    expect(errorMessage(i18n.t, limited(840))).toMatch(/Réessayez dans 14\u00a0min\.$/);
  });

  it('switches texts and currency when the user picks French, and remembers the choice', async () => {
    mockFetch((request) =>
      request.path === '/api/dashboard'
        ? {
            body: {
              success: true,
              results: { metrics: { netPnl: '1234.5', pnlPercent: 2, winRate: 50, closedTrades: 4 } },
            },
          }
        : undefined,
    );
    loginAs();
    renderApp('/dashboard');
    expect(await screen.findByText('+$1,234.50')).toBeTruthy();
    await userEvent.selectOptions(screen.getByTestId('language-switcher'), 'fr-FR');
    expect(await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeTruthy();
    expect(screen.getByText((text) => text.replace(/\s/g, ' ') === '+1 234,50 €')).toBeTruthy();
    expect(window.localStorage.getItem('language')).toBe('fr-FR');
    expect(document.documentElement.lang).toBe('fr-FR');
    expect(usePreferences.getState().language).toBe('fr-FR');
  });
});
