import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import type { Timeframe } from '../../features/market/api/get-candles';
import { useMarketPairs } from '../../features/market/api/get-market-pairs';
import { useTicker } from '../../features/market/api/get-ticker';
import { symbolFromPath, symbolPath } from '../../features/market/api/market-symbol';
import { MarketHeader } from '../../features/market/components/market-header';
import { OrderBook } from '../../features/market/components/order-book';
import { PriceChart } from '../../features/market/components/price-chart';
import { ManualTradeForm } from '../../features/trades/components/manual-trade-form';
import { OpenTrades } from '../../features/trades/components/open-trades';
import { useSearchWriter } from '../../lib/use-search-writer';

const DEFAULT_SYMBOL = 'BTC/USDT';

/**
 * Spec §2 Trading, composed from the market feature (pair, chart, order book) and the trades feature
 * (manual trade, open trades); the account picked in the form decides which venue's market is shown.
 */
export function TradingRoute() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchWriter();
  const symbol = symbolFromPath(params.get('symbol') ?? DEFAULT_SYMBOL);
  const accounts = useTradingAccounts();
  const [pickedAccount, setPickedAccount] = useState('');
  const accountId = pickedAccount || accounts.data?.[0]?.id || '';
  const venueAccount = accountId || undefined;
  const pairs = useMarketPairs(venueAccount);
  const ticker = useTicker(symbol, venueAccount);
  const [timeframe, setTimeframe] = useState<Timeframe>('1h');
  const [pickedPrice, setPickedPrice] = useState<{ price: string; at: number } | null>(null);
  const pair = pairs.data?.find((row) => row.symbol === symbol);
  const accountName = (id: string) => accounts.data?.find((account) => account.id === id)?.nickname;
  const isTestnetAccount = (id: string) =>
    accounts.data?.find((account) => account.id === id)?.sandbox ?? false;

  const changeSymbol = (next: string) => {
    setPickedPrice(null);
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.set('symbol', decodeURIComponent(symbolPath(next)));
        return updated;
      },
      { replace: true },
    );
  };

  return (
    <>
      <PageHeader title={t('trading.title')} description={t('trading.description')} />
      <MarketHeader
        pairs={pairs.data}
        pairsError={pairs.isError}
        symbol={symbol}
        onSymbolChange={changeSymbol}
        ticker={ticker.data}
      />
      {/* Binance-like: the order book beside the chart, the order form under it, open trades below. */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_17rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <PriceChart
            symbol={symbol}
            accountId={venueAccount}
            priceTick={pair?.priceTick}
            timeframe={timeframe}
            onTimeframeChange={setTimeframe}
          />
          <ManualTradeForm
            accounts={accounts.data}
            accountsError={accounts.isError ? accounts.error : undefined}
            onRetryAccounts={() => void accounts.refetch()}
            accountId={accountId}
            onAccountChange={setPickedAccount}
            symbol={symbol}
            lastPrice={ticker.data?.last}
            pickedPrice={pickedPrice}
            amountStep={pair?.amountStep}
          />
        </div>
        <div className="min-w-0">
          <OrderBook
            symbol={symbol}
            accountId={venueAccount}
            lastPrice={ticker.data?.last}
            onPickPrice={(price) => setPickedPrice({ price, at: Date.now() })}
            precision={pair}
          />
        </div>
      </div>
      <div className="mt-4">
        <OpenTrades accountName={accountName} isTestnetAccount={isTestnetAccount} />
      </div>
    </>
  );
}

export { TradingRoute as Component };
