import type { LadderLevel, TradeOrder, TradeRow } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Badge, StatusBadge, type Tone } from '../../../components/ui/status-badge';
import { signOf } from '../../../lib/format';
import { cn } from '../../../lib/cn';
import { useFormatters } from '../../../lib/use-formatters';
import { isAwaitingEntry } from '../utils/trade-figures';
import { closeReasonText, tradeNote } from '../utils/trade-note';
import { translateStoredMessage } from '../../../i18n/translate-message';
import { formatMoneyNumber } from '../../../lib/money';

/**
 * Open, closing, closed, cancelled or error; the error or close reason in the tooltip. An open trade whose
 * entry has not filled (quantity and entry price given) says "Entry pending": an order, not a position.
 */
export function TradeStatusBadge({
  trade,
}: {
  trade: Pick<TradeRow, 'status' | 'error' | 'closeReason'> &
    Partial<Pick<TradeRow, 'quantity' | 'entryPrice' | 'errorCode' | 'errorParams'>>;
}) {
  const { t } = useTranslation();
  const title =
    tradeNote(t, trade) ?? (trade.closeReason ? closeReasonText(t, trade.closeReason) : undefined);
  let badge;
  if (
    trade.quantity !== undefined &&
    trade.entryPrice !== undefined &&
    isAwaitingEntry({ ...trade, quantity: trade.quantity, entryPrice: trade.entryPrice })
  )
    badge = (
      <Badge tone="info" glyph="◷">
        {t('trades.status.pendingEntry')}
      </Badge>
    );
  else if (trade.status === 'closing')
    badge = (
      <Badge tone="warning" glyph="↻">
        {t('trades.status.closing')}
      </Badge>
    );
  else if (trade.status === 'error')
    badge = (
      <Badge tone="danger" glyph="!">
        {t('trades.status.error')}
      </Badge>
    );
  else badge = <StatusBadge status={trade.status} />;
  return <span title={title}>{badge}</span>;
}

/** A take-profit level: waiting, placed, partly filled, filled or cancelled (STYLE palette). */
export function LevelStatusBadge({ status }: { status: LadderLevel['status'] }) {
  const { t } = useTranslation();
  if (status === 'partially_filled')
    return (
      <Badge tone="info" glyph="◔">
        {t('trades.orderStatus.partially_filled')}
      </Badge>
    );
  return <StatusBadge status={status} />;
}

const ORDER_TONES: Record<TradeOrder['status'], { tone: Tone; glyph: string }> = {
  new: { tone: 'neutral', glyph: '◷' },
  submitted: { tone: 'neutral', glyph: '◷' },
  open: { tone: 'info', glyph: '◷' },
  partially_filled: { tone: 'info', glyph: '◔' },
  filled: { tone: 'success', glyph: '✓' },
  cancelled: { tone: 'neutral', glyph: '⊘' },
  rejected: { tone: 'danger', glyph: '✕' },
  expired: { tone: 'neutral', glyph: '⊘' },
  unknown: { tone: 'warning', glyph: '?' },
};

/** Why an order is not as it was sent, as the server answers it (a trade's order or one of the Orders list). */
type OrderError = Pick<TradeOrder, 'lastError' | 'lastErrorCode' | 'lastErrorParams'>;

/**
 * An order's state from the venue (DESIGN §6 state table); an unknown one still renders. Its last error is
 * the tooltip, said in the user's language from its code and params (issue 21: the server's own sentences,
 * a venue's refusal in our words, a venue's own words as they came); an error written before errors carried
 * a code is shown as the server wrote it.
 */
export function OrderStatusBadge({ status, error }: { status: string; error?: OrderError }) {
  const { t } = useTranslation();
  const style = ORDER_TONES[status as TradeOrder['status']];
  if (!style) return <Badge>{status}</Badge>;
  const title = translateStoredMessage(t, error?.lastError, error?.lastErrorCode, error?.lastErrorParams);
  return (
    <span title={title}>
      <Badge tone={style.tone} glyph={style.glyph}>
        {t(`trades.orderStatus.${status as TradeOrder['status']}`)}
      </Badge>
    </span>
  );
}

/** ▲ Long / ▼ Short: the arrow goes with the colour. */
export function SideText({ side, className }: { side: TradeRow['side']; className?: string }) {
  const { t } = useTranslation();
  return side === 'long' ? (
    <span className={cn('text-gain', className)}>▲ {t('position.long')}</span>
  ) : (
    <span className={cn('text-loss', className)}>▼ {t('position.short')}</span>
  );
}

/**
 * An amount in the trade's own currency (USDT is no ISO currency), sign always shown, with an arrow
 * and a colour for gains and losses (never colour alone).
 */
export function SignedValue({
  value,
  unit,
  className,
}: {
  value: string | null | undefined;
  unit?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const { locale } = useFormatters();
  if (value === null || value === undefined) return <span className="text-subtle">—</span>;
  const sign = signOf(value);
  // The unit's usual decimals (USDT 2, BTC 8: lib/money), not a raw 8.
  const text = formatMoneyNumber(value, unit ?? '', { locale, signDisplay: 'always' });
  return (
    <span
      className={cn(
        'num inline-flex items-center gap-1 whitespace-nowrap',
        sign > 0 ? 'text-gain' : sign < 0 ? 'text-loss' : 'text-muted',
        className,
      )}
    >
      <span aria-hidden="true" className="text-[0.8em]">
        {sign > 0 ? '▲' : sign < 0 ? '▼' : '■'}
      </span>
      <span className="sr-only">{sign > 0 ? t('pnl.gain') : sign < 0 ? t('pnl.loss') : t('pnl.flat')} </span>
      {text}
      {unit ? <span className="text-[0.85em] font-normal">{unit}</span> : null}
    </span>
  );
}
