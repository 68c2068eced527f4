import type { TFunction } from 'i18next';
import { errorMessage, translateMessage } from '../../../i18n/translate-message';

type Rule = [RegExp, (match: RegExpExecArray, t: TFunction) => string];

/**
 * The server's trade messages are English sentences, some with values inside ('Waiting for TP1 to be
 * filled first'): each is matched here and said again in the user's language; anything else goes
 * through the app's message catalogue.
 */
const RULES: Rule[] = [
  [/^Waiting for (\S+) to be filled first$/, (m, t) => t('trades.push.waiting', { previousName: m[1] })],
  [/^(\S+) is not available to push$/, (m, t) => t('trades.push.notAvailable', { name: m[1] })],
  [
    /^Failed to push (\S+): ([\s\S]*)$/,
    (m, t) => t('trades.push.failedWith', { name: m[1], error: translateTradeMessage(t, m[2] ?? '') }),
  ],
  [/^Trade not found$/, (_m, t) => t('trades.serverMessages.notFound')],
  [/^Short trades need a futures account$/, (_m, t) => t('trades.serverMessages.shortNeedsFutures')],
  [/^Close the trade before deleting it$/, (_m, t) => t('trades.serverMessages.closeBeforeDelete')],
  [/^This trade still has orders at the venue$/, (_m, t) => t('trades.serverMessages.liveOrders')],
  [/^Only an open trade can be changed$/, (_m, t) => t('trades.serverMessages.notOpenChange')],
  [/^Only an open trade can be completed$/, (_m, t) => t('trades.serverMessages.notOpenComplete')],
  [/^Order quantity rounds down to zero$/, (_m, t) => t('trades.serverMessages.roundsToZero')],
  [
    /^Order quantity (\S+) is below the minimum amount (\S+)$/,
    (m, t) => t('trades.serverMessages.belowMinAmount', { amount: m[1], min: m[2] }),
  ],
  [
    /^Order value (\S+) is below the minimum notional (\S+)$/,
    (m, t) => t('trades.serverMessages.belowMinNotional', { value: m[1], min: m[2] }),
  ],
  [
    /^Insufficient (\S+): (\S+) needed, (\S+) available$/,
    (m, t) => t('trades.serverMessages.insufficient', { asset: m[1], needed: m[2], available: m[3] }),
  ],
  [
    /^The stop-loss of a long trade must be below the current price \((\S+)\)$/,
    (m, t) => t('trades.serverMessages.stopBelow', { price: m[1] }),
  ],
  [
    /^The stop-loss of a short trade must be above the current price \((\S+)\)$/,
    (m, t) => t('trades.serverMessages.stopAbove', { price: m[1] }),
  ],
  [/^Stop-loss must be above 0$/, (_m, t) => t('trades.serverMessages.stopAboveZero')],
  [/^Stop-loss must be below 100%$/, (_m, t) => t('trades.serverMessages.stopBelowHundred')],
  [/^Take-profit sizes add up to more than 100%$/, (_m, t) => t('trades.serverMessages.sizesOver')],
  [
    /^(\S+) is not traded on (\S+)$/,
    (m, t) => t('trades.serverMessages.notTraded', { symbol: m[1], exchange: m[2] }),
  ],
];

export function translateTradeMessage(t: TFunction, message: string): string {
  for (const [pattern, say] of RULES) {
    const match = pattern.exec(message);
    if (match) return say(match, t);
  }
  return translateMessage(t, message);
}

/** The text of any thrown value on the trade screens, translated when it is a known message. */
export function tradeErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof Error && !(error instanceof TypeError)) {
    const said = translateTradeMessage(t, error.message);
    if (said !== error.message) return said;
  }
  return errorMessage(t, error);
}
