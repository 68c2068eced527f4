import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { PnlText } from '../../../components/ui/pnl-text';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { useFormatters } from '../../../lib/use-formatters';
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
  const format = useFormatters();
  const [base = '', quote = ''] = symbol.split('/');
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
          {ticker ? format.decimal(ticker.last) : <Skeleton className="mt-0.5 h-5 w-24" />}
        </span>
      </div>
      {stat(t('trading.ticker.change'), <PnlText value={ticker?.changePercent} kind="percent" />)}
      {stat(t('trading.ticker.high'), format.decimal(ticker?.high))}
      {stat(t('trading.ticker.low'), format.decimal(ticker?.low))}
      {stat(t('trading.ticker.volume', { base }), format.decimal(ticker?.baseVolume))}
    </Card>
  );
}
