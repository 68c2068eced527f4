// Issue 21: every close reason the contract declares (the strings the server writes) is named in English and
// in French; an old row's reason reads the same whatever its case, and one this build does not know, as written.
import { apiMessage, CLOSE_REASONS, nestedParams } from '@kairos/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n';
import { closeReasonText, tradeNote } from './trade-note';

async function labelsIn(language: 'en-US' | 'fr-FR') {
  await changeLanguage(language);
  return Object.fromEntries(CLOSE_REASONS.map((reason) => [reason, closeReasonText(i18n.t, reason)]));
}

describe('why a trade ended, as the user reads it', () => {
  afterEach(() => changeLanguage('en-US'));

  it.each(['en-US', 'fr-FR'] as const)(
    'names every close reason the contract declares, in %s',
    async (language) => {
      const labels = await labelsIn(language);
      const unnamed = CLOSE_REASONS.filter((reason) => !labels[reason] || labels[reason] === reason);
      expect(unnamed).toEqual([]);
    },
  );

  it('says each in English and in French', async () => {
    expect(await labelsIn('en-US')).toEqual({
      'take profit': 'Closed by take-profit',
      closed: 'Closed',
      'stop loss': 'Closed by stop-loss',
      'manual close': 'Closed by hand',
      'bot stopped': 'Closed when its bot was stopped',
      'admin close': 'Closed by an administrator',
      'signal long': 'Closed by a long signal (reversed)',
      'signal short': 'Closed by a short signal (reversed)',
      'signal exit': 'Closed by exit signal',
      'closed on venue': 'Closed on the venue, outside Kairos',
      liquidation: 'Liquidated by the venue',
    });
    expect(await labelsIn('fr-FR')).toEqual({
      'take profit': 'Clôturé par take-profit',
      closed: 'Clôturé',
      'stop loss': 'Clôturé par stop-loss',
      'manual close': 'Clôturé à la main',
      'bot stopped': 'Clôturé à l’arrêt de son bot',
      'admin close': 'Clôturé par un administrateur',
      'signal long': 'Clôturé par un signal long (retournement)',
      'signal short': 'Clôturé par un signal short (retournement)',
      'signal exit': 'Clôturé par un signal de sortie',
      'closed on venue': 'Clôturé sur la plateforme, hors de Kairos',
      liquidation: 'Liquidé par la plateforme',
    });
  });

  it('reads a reason in any case, and shows one this build does not know as written', async () => {
    await changeLanguage('fr-FR');
    expect(closeReasonText(i18n.t, 'Stop Loss')).toBe('Clôturé par stop-loss');
    expect(closeReasonText(i18n.t, 'margin call')).toBe('margin call');
    expect(closeReasonText(i18n.t, 'constructor')).toBe('constructor');
  });
});

describe("a refused entry's note", () => {
  afterEach(() => changeLanguage('en-US'));

  it("says the venue's refusal in the user's language, from the code and params nested under ORDER_REJECTED", async () => {
    // As the server stores it on the errored trade (issue 21): ORDER_REJECTED, the refusal under `reason`.
    const refusal = 'Insufficient USDT: 650.5 needed, 10 available';
    const errorParams = nestedParams('reason', {
      message: refusal,
      code: 'INSUFFICIENT_FUNDS',
      params: { variant: 'balance', asset: 'USDT', needed: '650.5', available: '10' },
    });
    const trade = {
      error: apiMessage('ORDER_REJECTED', errorParams),
      errorCode: 'ORDER_REJECTED',
      errorParams,
    };
    await changeLanguage('fr-FR');
    expect(tradeNote(i18n.t, trade)).toBe('USDT insuffisant\u00a0: 650,5 nécessaires, 10 disponibles');
    await changeLanguage('en-US');
    expect(tradeNote(i18n.t, trade)).toBe(refusal);
  });
});
