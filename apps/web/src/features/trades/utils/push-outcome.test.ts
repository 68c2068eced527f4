import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n';
import { ApiError } from '../../../lib/api-error';
import { pushFailureOutcome, pushMessage, pushSuccessOutcome } from './push-outcome';

const refused = (message: string, status = 422) =>
  new ApiError(message, status, { success: false, error: 'TAKE_PROFIT_NOT_PUSHABLE', message });

describe('push to take profit: what the user reads (spec §8)', () => {
  it.each([
    [
      'success with the order id',
      pushSuccessOutcome(
        {
          results: { orderId: 'ord-42', name: 'TP1' },
          message: 'Successfully pushed TP1 to market! Order ID: ord-42',
        },
        'TP1',
      ),
      'Successfully pushed TP1 to market! Order ID: ord-42',
    ],
    [
      'success read from the message when results lack the id',
      pushSuccessOutcome(
        { results: null, message: 'Successfully pushed TP2 to market! Order ID: 9f3a' },
        'TP2',
      ),
      'Successfully pushed TP2 to market! Order ID: 9f3a',
    ],
    [
      'a level waiting for the one below',
      pushFailureOutcome(refused('Waiting for TP1 to be filled first'), 'TP2'),
      'Waiting for TP1 to be filled first',
    ],
    [
      'a level not available',
      pushFailureOutcome(refused('TP1 is not available to push'), 'TP1'),
      'TP1 is not available to push',
    ],
    [
      'a venue refusal with its reason',
      pushFailureOutcome(refused('Failed to push TP1: Insufficient BTC: 0.5 needed, 0.2 available'), 'TP1'),
      'Failed to push TP1: Insufficient BTC: 0.5 needed, 0.2 available',
    ],
    [
      'another refusal, named after the level',
      pushFailureOutcome(refused('Trade not found', 404), 'TP3'),
      'Failed to push TP3: Trade not found',
    ],
    [
      'no answer at all',
      pushFailureOutcome(new TypeError('Failed to fetch'), 'TP1'),
      'Network error occurred',
    ],
    [
      'a failure with no reason',
      pushFailureOutcome(new ApiError('HTTP error! status: 502', 502, null), 'TP1'),
      'Failed to push take profit to market',
    ],
  ])('%s', (_name, outcome, text) => {
    expect(pushMessage(i18n.t, outcome)).toBe(text);
  });

  it('says the same in French', async () => {
    await changeLanguage('fr-FR');
    const t = i18n.t;
    expect(pushMessage(t, { kind: 'success', name: 'TP1', orderId: 'ord-42' })).toBe(
      'TP1 poussé au marché avec succès ! ID de l’ordre : ord-42',
    );
    expect(pushMessage(t, { kind: 'waiting', name: 'TP2', previousName: 'TP1' })).toBe(
      'En attente de l’exécution de TP1',
    );
    expect(pushMessage(t, { kind: 'notAvailable', name: 'TP1' })).toBe('TP1 ne peut pas être poussé');
    expect(pushMessage(t, { kind: 'network' })).toBe('Une erreur réseau s’est produite');
    expect(pushMessage(t, { kind: 'failed' })).toBe('Échec de l’envoi du take-profit au marché');
    expect(
      pushMessage(t, {
        kind: 'failedWith',
        name: 'TP1',
        error: 'Insufficient BTC: 0.5 needed, 0.2 available',
      }),
    ).toBe('Échec de l’envoi de TP1 : BTC insuffisant : 0.5 nécessaires, 0.2 disponibles');
  });
});
