import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { paths } from '../../../config/paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useMarketFigures } from '../hooks/use-market-figures';
import { type TradeRow, useTrades } from '../api/get-trades';
import { formatDuration, isAwaitingEntry, splitSymbol, tradeDurationMs } from '../utils/trade-figures';
import { OPEN_TRADE_REFRESH_MS, UnrealisedCell } from './open-position-figures';
import { SideText, SignedValue, TradeStatusBadge } from './trade-badges';
import { TradeCard } from './trade-card';

/** Where `paths.openTrades` lands: the Trading screen scrolled to this list. */
const ANCHOR = 'open-trades';

/** The user's open trades (`GET /api/trades?status=open`), each linking to its TradeDetail. */
export function OpenTrades({
  accountName,
  isTestnetAccount,
}: {
  accountName?: (accountId: string) => string | undefined;
  /** Whether an account is a testnet or demo-trading one, from the accounts the route loaded. */
  isTestnetAccount?: (accountId: string) => boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const format = useFormatters();
  const trades = useTrades({ status: 'open' }, { refetchInterval: OPEN_TRADE_REFRESH_MS });
  const figures = useMarketFigures(trades.data?.items);
  const { hash } = useLocation();
  const loaded = trades.data !== undefined;
  useEffect(() => {
    // Once the rows are in, so the list does not move away under the reader.
    if (hash === `#${ANCHOR}` && loaded)
      document.getElementById(ANCHOR)?.scrollIntoView?.({ block: 'start' });
  }, [hash, loaded]);

  const columns: Column<TradeRow>[] = [
    {
      // Symbol, side and where it comes from in one column: the table fits 1280 px beside the order form.
      key: 'symbol',
      header: t('trades.columns.symbol'),
      cell: (trade) => (
        <span className="flex flex-col">
          <span className="inline-flex items-center gap-1.5">
            <Link
              to={paths.trade(trade.id)}
              onClick={(event) => event.stopPropagation()}
              className="font-medium text-fg hover:text-accent"
            >
              {trade.symbol}
            </Link>
            <SideText side={trade.side} />
          </span>
          <span className="inline-flex items-center gap-1.5 text-xs text-muted">
            <span>
              {trade.botId ? t('trading.openTrades.bot') : t('trading.openTrades.manual')}
              {accountName?.(trade.tradingAccountId) ? ` · ${accountName(trade.tradingAccountId)}` : ''}
            </span>
            {isTestnetAccount?.(trade.tradingAccountId) ? <TestnetBadge /> : null}
          </span>
        </span>
      ),
    },
    {
      key: 'qty',
      header: t('trades.columns.qty'),
      numeric: true,
      // A resting limit entry holds nothing yet: no "0.00" position (issue 21).
      cell: (trade) =>
        isAwaitingEntry(trade) ? (
          <span className="text-subtle">—</span>
        ) : (
          figures.quantity(trade, trade.quantity)
        ),
    },
    {
      // Entry and last price in one column: the table fits 1280 px.
      key: 'entry',
      header: (
        <span className="flex flex-col">
          <span>{t('trades.columns.entry')}</span>
          <span className="font-normal text-subtle">{t('trades.unrealised.priceColumn')}</span>
        </span>
      ),
      numeric: true,
      cell: (trade) => (
        <span className="flex flex-col">
          <span>{figures.price(trade, trade.entryPrice)}</span>
          <span className="text-xs text-muted">
            {trade.currentPrice ? figures.price(trade, trade.currentPrice) : '—'}
          </span>
        </span>
      ),
    },
    {
      key: 'unrealised',
      header: t('trades.unrealised.column'),
      numeric: true,
      cell: (trade) => <UnrealisedCell trade={trade} />,
    },
    {
      key: 'pnl',
      header: t('trading.openTrades.realised'),
      numeric: true,
      cell: (trade) => <SignedValue value={trade.pnl} unit={splitSymbol(trade.symbol).quote} />,
    },
    {
      // Opened and how long ago in one column (the table fits 1280 px).
      key: 'opened',
      header: t('trading.openTrades.opened'),
      cell: (trade) => (
        <span className="flex flex-col">
          <span className="num text-muted">{format.dateTime(trade.openedAt)}</span>
          <span className="text-xs text-subtle">{formatDuration(tradeDurationMs(trade), t)}</span>
        </span>
      ),
    },
    {
      key: 'status',
      header: t('trades.columns.status'),
      cell: (trade) => <TradeStatusBadge trade={trade} />,
    },
  ];

  const total = trades.data?.total ?? 0;
  return (
    <Card id={ANCHOR} className="scroll-mt-4">
      <CardHeader
        title={t('trading.openTrades.title')}
        description={trades.data ? t('trading.openTrades.count', { count: total }) : undefined}
      />
      <TableOrCards
        caption={t('trading.openTrades.title')}
        columns={columns}
        rows={trades.data?.items ?? []}
        rowKey={(trade) => trade.id}
        {...queryState(trades)}
        onRowClick={(trade) => void navigate(paths.trade(trade.id))}
        maxHeight="24rem"
        flush
        // Below 640 px a card a trade (issue 21: the seven columns scrolled sideways on a phone).
        card={(trade) => (
          <TradeCard
            raised
            tradeId={trade.id}
            symbol={trade.symbol}
            side={trade.side}
            corner={
              isAwaitingEntry(trade) ? <TradeStatusBadge trade={trade} /> : <UnrealisedCell trade={trade} />
            }
            left={{
              label: t('trades.columns.qty'),
              value: isAwaitingEntry(trade) ? '—' : figures.quantity(trade, trade.quantity),
            }}
            right={{
              label: t('trades.columns.entry'),
              value: <span className="num text-fg">{figures.price(trade, trade.entryPrice)}</span>,
            }}
            footer={
              <>
                <span className="inline-flex items-center gap-1.5">
                  {trade.botId ? t('trading.openTrades.bot') : t('trading.openTrades.manual')}
                  {accountName?.(trade.tradingAccountId) ? ` · ${accountName(trade.tradingAccountId)}` : ''}
                  {isTestnetAccount?.(trade.tradingAccountId) ? <TestnetBadge /> : null}
                </span>
                <span className="num">{formatDuration(tradeDurationMs(trade), t)}</span>
              </>
            }
          />
        )}
        empty={
          <EmptyState
            title={t('trading.openTrades.empty.title')}
            description={t('trading.openTrades.empty.description')}
            className="py-6"
          />
        }
      />
    </Card>
  );
}
