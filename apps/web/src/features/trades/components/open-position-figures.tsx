import type { TradeRow } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { PnlText } from '../../../components/ui/pnl-text';
import { cn } from '../../../lib/cn';
import { formatMoney, formatPrice } from '../../../lib/money';
import { useFormatters } from '../../../lib/use-formatters';
import { splitSymbol } from '../utils/trade-figures';
import { SignedValue } from './trade-badges';

/** An open trade's answers refresh this often while a screen shows them (the price moves between events). */
export const OPEN_TRADE_REFRESH_MS = 5_000;

type Marked = Pick<
  TradeRow,
  'symbol' | 'currentPrice' | 'unrealisedPnl' | 'unrealisedPnlPercent' | 'unrealisedPnlMarginPercent'
>;

/** "≈ +12.40 USDT": an estimate, signed, in the unit's usual decimals (lib/money; a tiny amount keeps its digits). */
export function useApproxAmount() {
  const { locale } = useFormatters();
  return (value: string, unit: string) => `≈ ${formatMoney(value, unit, { locale, signDisplay: 'always' })}`;
}

/** The percents of an unrealised PnL: of the entry notional, and on futures of the margin (labelled). */
export function UnrealisedPercents({ trade, className }: { trade: Marked; className?: string }) {
  const { t } = useTranslation();
  if (!trade.unrealisedPnlPercent) return null;
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-x-2 text-xs', className)}>
      <PnlText value={trade.unrealisedPnlPercent} kind="percent" />
      {trade.unrealisedPnlMarginPercent ? (
        <span className="inline-flex items-center gap-1 text-muted">
          <PnlText value={trade.unrealisedPnlMarginPercent} kind="percent" />
          {t('trades.unrealised.onMargin')}
        </span>
      ) : null}
    </span>
  );
}

/** A table cell: the unrealised PnL in quote with its percents below; "—" while it cannot be priced. */
export function UnrealisedCell({ trade }: { trade: Marked }) {
  const { quote } = splitSymbol(trade.symbol);
  if (!trade.unrealisedPnl) return <span className="text-subtle">—</span>;
  return (
    <span className="inline-flex flex-col items-end gap-0.5">
      <SignedValue value={trade.unrealisedPnl} unit={quote} />
      <UnrealisedPercents trade={trade} />
    </span>
  );
}

/**
 * What a confirmation says about doing it now: the last price and the estimated result (the exit's taker
 * fee at the usual rate). Nothing when the server could not price the trade.
 */
export function EstimateNow({
  symbol,
  currentPrice,
  estimate,
}: {
  symbol: string;
  currentPrice: string | null | undefined;
  estimate: string | null | undefined;
}) {
  const { t } = useTranslation();
  const { locale } = useFormatters();
  const approx = useApproxAmount();
  const { quote } = splitSymbol(symbol);
  if (!currentPrice) return null;
  // Inside the dialog's description paragraph: spans only (no block elements in a <p>).
  return (
    <span className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm">
      <span className="text-muted">{t('trades.unrealised.currentPrice')}</span>
      <span className="num text-right text-fg">{formatPrice(currentPrice, quote, { locale })}</span>
      {estimate ? (
        <>
          <span className="text-muted">{t('trades.unrealised.estimatedResult')}</span>
          <span
            className={cn(
              'num text-right font-semibold',
              Number(estimate) > 0 ? 'text-gain' : Number(estimate) < 0 ? 'text-loss' : 'text-fg',
            )}
          >
            {approx(estimate, quote)}
          </span>
          <span className="col-span-2 text-xs text-subtle">{t('trades.unrealised.estimateHint')}</span>
        </>
      ) : null}
    </span>
  );
}
