import { apiMessage, nestedParams, type ApiParams } from '@kairos/contract';
import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n } from '../../../i18n';
import { ApiError } from '../../../lib/api-error';
import { pushFailureOutcome, pushMessage, pushSuccessOutcome } from './push-outcome';

/** A refusal as the server sends it: its code, its English message and the params it was built from. */
const refused = (error: string, params: ApiParams, status = 422) => {
  const message = apiMessage(error as never, params as never);
  return new ApiError(message, status, { success: false, error, message, params });
};
const insufficient = nestedParams('error', {
  message: 'Insufficient BTC: 0.5 needed, 0.2 available',
  code: 'INSUFFICIENT_FUNDS',
  params: { variant: 'balance', asset: 'BTC', needed: '0.5', available: '0.2' },
});

describe('push to take profit: what the user reads (spec §8)', () => {
  const cases = () =>
    [
      [
        'success with the order id',
        pushSuccessOutcome(
          {
            results: { orderId: 'ord-42', name: 'TP1' },
            message: 'Successfully pushed TP1 to market! Order ID: ord-42',
            code: 'TAKE_PROFIT_PUSHED',
            params: { name: 'TP1', orderId: 'ord-42' },
          },
          'TP1',
        ),
        'Successfully pushed TP1 to market! Order ID: ord-42',
        'TP1 envoyé au marché avec succès\u202f! ID de l’ordre\u00a0: ord-42',
      ],
      [
        'success said from the code and params when results lack the id',
        pushSuccessOutcome(
          {
            results: null,
            message: 'Successfully pushed TP2 to market! Order ID: 9f3a',
            code: 'TAKE_PROFIT_PUSHED',
            params: { name: 'TP2', orderId: '9f3a' },
          },
          'TP2',
        ),
        'Successfully pushed TP2 to market! Order ID: 9f3a',
        'TP2 envoyé au marché avec succès\u202f! ID de l’ordre\u00a0: 9f3a',
      ],
      [
        'a level waiting for the one below',
        pushFailureOutcome(
          refused('TAKE_PROFIT_NOT_PUSHABLE', { variant: 'waiting', previousName: 'TP1' }),
          'TP2',
        ),
        'Waiting for TP1 to be filled first',
        'En attente de l’exécution de TP1',
      ],
      [
        'a level not available',
        pushFailureOutcome(refused('TAKE_PROFIT_NOT_PUSHABLE', { name: 'TP1' }), 'TP1'),
        'TP1 is not available to push',
        'TP1 ne peut pas être envoyé au marché',
      ],
      [
        'a venue refusal with its reason',
        pushFailureOutcome(refused('PUSH_FAILED', { name: 'TP1', ...insufficient }), 'TP1'),
        'Failed to push TP1: Insufficient BTC: 0.5 needed, 0.2 available',
        'Échec de l’envoi de TP1\u00a0: BTC insuffisant\u00a0: 0,5 nécessaires, 0,2 disponibles',
      ],
      [
        'a venue refusal in the venue’s own words',
        pushFailureOutcome(
          refused('PUSH_FAILED', { name: 'TP1', error: 'Account has insufficient balance' }),
          'TP1',
        ),
        'Failed to push TP1: Account has insufficient balance',
        'Échec de l’envoi de TP1\u00a0: Account has insufficient balance',
      ],
      [
        'another refusal, named after the level',
        pushFailureOutcome(refused('NOT_FOUND', { variant: 'trade' }, 404), 'TP3'),
        'Failed to push TP3: Trade not found',
        'Échec de l’envoi de TP3\u00a0: Trade introuvable',
      ],
      [
        'no answer at all',
        pushFailureOutcome(new TypeError('Failed to fetch'), 'TP1'),
        'Network error occurred',
        'Une erreur réseau s’est produite',
      ],
      [
        'a failure with no reason',
        pushFailureOutcome(new ApiError('HTTP error! status: 502', 502, null), 'TP1'),
        'Failed to push take profit to market',
        'Échec de l’envoi du take-profit au marché',
      ],
    ] as const;

  it.each(cases())('%s', (_name, outcome, english) => {
    expect(pushMessage(i18n.t, outcome)).toBe(english);
  });

  it('says the same in French, from the codes and params alone', async () => {
    await changeLanguage('fr-FR');
    for (const [name, outcome, , french] of cases()) expect(pushMessage(i18n.t, outcome), name).toBe(french);
  });
});
