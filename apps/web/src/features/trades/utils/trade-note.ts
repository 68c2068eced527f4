import type { TradeRow } from '@kairos/contract';
import type { TFunction } from 'i18next';
import { translateApiMessage, translateMessage } from '../../../i18n/translate-message';

/**
 * What went wrong with a trade, or the note the server wrote on it, in the user's language: from its code and
 * params (issue 21); a note written before notes carried them is shown as the server wrote it (translated when
 * it is one of the web's known sentences).
 */
export function tradeNote(
  t: TFunction,
  trade: Pick<TradeRow, 'error'> & Partial<Pick<TradeRow, 'errorCode' | 'errorParams'>>,
): string | undefined {
  if (!trade.error) return undefined;
  if (trade.errorCode)
    return translateApiMessage(t, trade.errorCode, trade.errorParams ?? undefined, trade.error);
  return translateMessage(t, trade.error);
}

/** The close reasons the server writes (`trades.close_reason`), by their label's key. */
const CLOSE_REASONS: Record<string, string> = {
  'take profit': 'takeProfit',
  'stop loss': 'stopLoss',
  'manual close': 'manualClose',
  // An exit alert ('signal exit'), or one for the other side that reverses the position.
  'exit signal': 'exitSignal',
  'signal exit': 'exitSignal',
  'signal long': 'longSignal',
  'signal short': 'shortSignal',
  'admin close': 'adminClose',
  'bot stopped': 'botStopped',
  closed: 'closed',
  // The venue closed the position outside Kairos (the server's position check books it from the venue's fills).
  liquidation: 'liquidation',
  'closed on venue': 'closedOnVenue',
};

/** Why a trade ended, in the user's language; a reason this build does not know, as the server wrote it. */
export function closeReasonText(t: TFunction, reason: string): string {
  const key = CLOSE_REASONS[reason.toLowerCase()];
  return key ? t(`trades.closeReasons.${key}`) : reason;
}
