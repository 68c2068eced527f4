import type { CloseReason, TradeRow } from '@kairos/contract';
import type enUSTrades from '../../../i18n/locales/en-US.trades';
import type { TFunction } from 'i18next';
import { translateStoredMessage } from '../../../i18n/translate-message';

/**
 * What went wrong with a trade, or the note the server wrote on it, in the user's language: from its code and
 * params (issue 21); a note written before notes carried them is shown as the server wrote it (translated when
 * it is one of the web's known sentences).
 */
export function tradeNote(
  t: TFunction,
  trade: Pick<TradeRow, 'error'> & Partial<Pick<TradeRow, 'errorCode' | 'errorParams'>>,
): string | undefined {
  return translateStoredMessage(t, trade.error, trade.errorCode, trade.errorParams);
}

/** Each close reason the contract declares (`CLOSE_REASONS`, what the server writes), by its label's key. */
const CLOSE_REASON_LABELS: Record<CloseReason, keyof typeof enUSTrades.trades.closeReasons> = {
  'take profit': 'takeProfit',
  closed: 'closed',
  'stop loss': 'stopLoss',
  'manual close': 'manualClose',
  'bot stopped': 'botStopped',
  'admin close': 'adminClose',
  // An exit alert, or one for the other side that reverses the position.
  'signal exit': 'exitSignal',
  'signal long': 'longSignal',
  'signal short': 'shortSignal',
  // The venue closed the position outside Kairos (the server's position check books it from the venue's fills).
  'closed on venue': 'closedOnVenue',
  liquidation: 'liquidation',
};

/** Why a trade ended, in the user's language; a reason this build does not know, as the server wrote it. */
export function closeReasonText(t: TFunction, reason: string): string {
  const known = reason.toLowerCase();
  if (!Object.hasOwn(CLOSE_REASON_LABELS, known)) return reason;
  return t(`trades.closeReasons.${CLOSE_REASON_LABELS[known as CloseReason]}`);
}
