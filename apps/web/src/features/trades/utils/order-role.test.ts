// Issue 21: the timeline and the orders list name every order role, in both languages — the position check's
// `venue-close` and `liquidation` read as sent before.
import { ORDER_ROLES } from '@kairos/contract';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { useRoleLabel } from '../components/trade-timeline';

async function labelsIn(language: 'en-US' | 'fr-FR') {
  await changeLanguage(language);
  const { result } = renderHook(() => useRoleLabel());
  return Object.fromEntries([...ORDER_ROLES, 'tp1', 'tp12'].map((role) => [role, result.current(role)]));
}

describe('order roles as the user reads them', () => {
  afterEach(() => changeLanguage('en-US'));

  it.each(['en-US', 'fr-FR'] as const)('names every role the contract declares, in %s', async (language) => {
    const labels = await labelsIn(language);
    const unnamed = ORDER_ROLES.filter((role) => !labels[role] || labels[role] === role);
    expect(unnamed).toEqual([]);
  });

  it('says them in English and in French (docs/glossary.md)', async () => {
    expect(await labelsIn('en-US')).toEqual({
      entry: 'Entry',
      exit: 'Exit',
      stop: 'Stop-loss',
      'venue-close': 'Close on the venue',
      liquidation: 'Liquidation',
      tp1: 'TP1',
      tp12: 'TP12',
    });
    expect(await labelsIn('fr-FR')).toEqual({
      entry: 'Entrée',
      exit: 'Sortie',
      stop: 'Stop-loss',
      'venue-close': 'Clôture sur la plateforme',
      liquidation: 'Liquidation',
      tp1: 'TP1',
      tp12: 'TP12',
    });
  });

  it('shows a role this build does not know as sent', async () => {
    await changeLanguage('fr-FR');
    const { result } = renderHook(() => useRoleLabel());
    expect(result.current('reversal')).toBe('reversal');
  });
});
