import { VALIDATION_MESSAGES } from '@kairos/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePreferences } from '../lib/preferences-store';
import { mockFetch } from '../testing/fetch-mock';
import { loginAs, renderApp } from '../testing/render';
import { changeLanguage, i18n } from './index';
import enUS from './locales/en-US';
import enUSMessages from './locales/en-US.messages';
import frFR from './locales/fr-FR';
import { translateMessage } from './translate-message';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, nested]) => keys(nested, prefix ? `${prefix}.${key}` : key));
}

describe('translations', () => {
  it('has every English text in French, and nothing more', () => {
    expect(keys(frFR.translation).sort()).toEqual(keys(enUS).sort());
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
    expect(translateMessage(i18n.t, 'HTTP error! status: 503')).toBe('Erreur HTTP ! Statut : 503');
    expect(translateMessage(i18n.t, 'Something the server said')).toBe('Something the server said');
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
