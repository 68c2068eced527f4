import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';
import { useDeferredAnswer } from '../../../lib/use-deferred-answer';
import { useMarketFigures } from '../../trades/hooks/use-market-figures';
import { UnrealisedCell } from '../../trades/components/open-position-figures';
import { SideText } from '../../trades/components/trade-badges';
import { type OpenPosition, type OpenPositionsParams, useOpenPositions } from '../api/get-open-positions';
import { TradeCard } from '../../trades/components/trade-card';

/**
 * The dashboard's open positions (issue 21): each open trade holding something, its current price and
 * unrealised PnL in the symbol's quote currency, refreshed every few seconds.
 */
export const OpenPositionsPanel = memo(function OpenPositionsPanel({
  params,
}: {
  params: OpenPositionsParams;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useOpenPositions(params);
  const positions = useDeferredAnswer(query);
  // A position's market as the trades feature reads it (by its account), for its step and tick.
  const at = (p: OpenPosition) => ({ tradingAccountId: p.accountId, symbol: p.symbol });
  const figures = useMarketFigures(positions.data?.map(at));
  const cards = (positions.data?.length ?? 0) > 0;

  const columns: Column<OpenPosition>[] = [
    {
      key: 'symbol',
      header: t('dashboard.openPositions.symbol'),
      cell: (p) => (
        <Link
          to={paths.trade(p.tradeId)}
          onClick={(event) => event.stopPropagation()}
          className="font-medium text-fg hover:text-accent"
        >
          {p.symbol}
        </Link>
      ),
    },
    {
      key: 'source',
      header: t('dashboard.openPositions.source'),
      cell: (p) => (
        <span className="inline-flex items-center gap-1.5 text-muted">
          <span>
            {p.botNickname ?? t('dashboard.openPositions.manual')} · {p.accountNickname}
          </span>
          {p.sandbox ? <TestnetBadge /> : null}
        </span>
      ),
    },
    { key: 'side', header: t('dashboard.openPositions.side'), cell: (p) => <SideText side={p.side} /> },
    {
      key: 'qty',
      header: t('dashboard.openPositions.quantity'),
      numeric: true,
      cell: (p) => figures.quantity(at(p), p.quantity),
    },
    {
      key: 'entry',
      header: t('dashboard.openPositions.entry'),
      numeric: true,
      cell: (p) => figures.price(at(p), p.entryPrice),
    },
    {
      key: 'price',
      header: t('dashboard.openPositions.price'),
      numeric: true,
      cell: (p) =>
        p.currentPrice ? figures.price(at(p), p.currentPrice) : <span className="text-subtle">—</span>,
    },
    {
      key: 'unrealised',
      header: t('dashboard.openPositions.unrealised'),
      numeric: true,
      cell: (p) => <UnrealisedCell trade={p} />,
    },
  ];

  return (
    <Card>
      <CardHeader
        title={t('dashboard.openPositions.title')}
        description={t('dashboard.openPositions.description')}
      />
      {/* Below 640 px a position is a card (side, size, price, PnL in view); the table says loading or empty. */}
      <div className={cn(cards && 'hidden sm:block')}>
        <Table
          caption={t('dashboard.openPositions.title')}
          columns={columns}
          rows={positions.data}
          rowKey={(p) => p.tradeId}
          {...queryState(query)}
          // Drawn from the deferred answer: loading until its first render.
          loading={positions.pending}
          onRowClick={(p) => void navigate(paths.trade(p.tradeId))}
          maxHeight="24rem"
          flush
          empty={<EmptyState title={t('dashboard.openPositions.empty')} className="py-6" />}
        />
      </div>
      {cards ? (
        <ul aria-label={t('dashboard.openPositions.title')} className="flex flex-col gap-2 p-3 sm:hidden">
          {positions.data?.map((p) => (
            <li key={p.tradeId}>
              <PositionCard
                position={p}
                quantity={figures.quantity(at(p), p.quantity)}
                price={figures.price(at(p), p.currentPrice)}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
});

/** A phone's position: symbol and side with the unrealised PnL, size and price, where it comes from. */
function PositionCard({
  position: p,
  quantity,
  price,
}: {
  position: OpenPosition;
  quantity: string;
  price: string;
}) {
  const { t } = useTranslation();
  return (
    <TradeCard
      raised
      tradeId={p.tradeId}
      symbol={p.symbol}
      side={p.side}
      corner={<UnrealisedCell trade={p} />}
      left={{ label: t('dashboard.openPositions.quantity'), value: quantity }}
      right={{
        label: t('dashboard.openPositions.price'),
        value: <span className="num text-fg">{price}</span>,
      }}
      footer={
        <span className="inline-flex items-center gap-1.5">
          {p.botNickname ?? t('dashboard.openPositions.manual')} · {p.accountNickname}
          {p.sandbox ? <TestnetBadge /> : null}
        </span>
      }
    />
  );
}
