import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { PnlText } from '../../../components/ui/pnl-text';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { useMoney } from '../../../lib/money';
import type { MarketPair } from '../api/get-market-pairs';
import type { Ticker } from '../api/get-ticker';

export interface MarketHeaderProps {
  pairs: MarketPair[] | undefined;
  symbol: string;
  onSymbolChange: (symbol: string) => void;
  ticker: Ticker | undefined;
  pairsError?: boolean;
}

/** The pair picker (from `/market/pairs`) and the pair's last price, 24 h change, high, low and volume. */
export function MarketHeader({ pairs, symbol, onSymbolChange, ticker, pairsError }: MarketHeaderProps) {
  const { t } = useTranslation();
  const money = useMoney();
  const [base = '', quote = ''] = symbol.split('/');
  const pair = pairs?.find((row) => row.symbol === symbol);
  // The labels say the units ("Last price (USDT)", "24h volume (BTC)"): figures to the pair's tick and step.
  const price = (value: string | null | undefined) => money.price(value, quote, pair?.priceTick, false);
  const options = (pairs ?? [])
    .filter((pair) => pair.active || pair.symbol === symbol)
    .map((pair) => ({ value: pair.symbol, label: pair.symbol }));
  if (!options.some((option) => option.value === symbol)) options.unshift({ value: symbol, label: symbol });

  const stat = (label: string, value: ReactNode) => (
    <div className="flex min-w-0 flex-col">
      <span className="text-[11px] text-subtle">{label}</span>
      <span className="num truncate text-sm text-fg">
        {ticker ? value : <Skeleton className="mt-0.5 h-4 w-20" />}
      </span>
    </div>
  );

  return (
    <Card className="mb-4 flex flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3">
      <Select
        aria-label={t('trading.pair')}
        fieldClassName="w-40"
        className="font-semibold"
        options={options}
        value={symbol}
        disabled={pairs === undefined && !pairsError}
        onChange={(event) => onSymbolChange(event.target.value)}
      />
      <div className="flex flex-col">
        <span className="text-[11px] text-subtle">{t('trading.ticker.last', { quote })}</span>
        <span className="num text-lg leading-tight font-semibold text-fg" data-testid="last-price">
          {ticker ? price(ticker.last) : <Skeleton className="mt-0.5 h-5 w-24" />}
        </span>
      </div>
      {stat(t('trading.ticker.change'), <PnlText value={ticker?.changePercent} kind="percent" />)}
      {stat(t('trading.ticker.high'), price(ticker?.high))}
      {stat(t('trading.ticker.low'), price(ticker?.low))}
      {stat(
        t('trading.ticker.volume', { base }),
        money.quantity(ticker?.baseVolume, undefined, pair?.amountStep),
      )}
    </Card>
  );
}
