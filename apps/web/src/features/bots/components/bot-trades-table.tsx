import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PnlText } from '../../../components/ui/pnl-text';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
import { paths } from '../../../config/paths';
import { formatDecimal, signOf } from '../../../lib/format';
import { cn } from '../../../lib/cn';
import { useFormatters } from '../../../lib/use-formatters';
import { UnrealisedPercents } from '../../trades/components/open-position-figures';
import { SideText, SignedValue, TradeStatusBadge } from '../../trades/components/trade-badges';
import { useMarketFigures } from '../../trades/hooks/use-market-figures';
import { formatDuration } from '../../trades/utils/trade-figures';
import { TRADES_PAGE_SIZE, type TradeRow, useBotTrades } from '../api/get-bot-trades';
import { formatMoney } from '../../../lib/money';
import { TradeCard } from '../../trades/components/trade-card';

/** The server's duration when closed; an open trade's runs until now. */
function tradeDuration(trade: TradeRow): number | null {
  if (trade.durationMs !== null && trade.durationMs !== undefined) return trade.durationMs;
  const opened = Date.parse(trade.openedAt);
  if (Number.isNaN(opened)) return null;
  const closed = trade.closedAt ? Date.parse(trade.closedAt) : Date.now();
  return closed - opened;
}

/** The quote currency of a symbol: "BTC/USDT" → "USDT". */
export function quoteOf(symbol: string): string {
  return symbol.split('/')[1]?.split(':')[0] ?? '';
}

/** "-9.22": a PnL in its quote currency to the cent, sign always shown; the tooltip has every decimal. */
export function formatPnlAmount(value: string, locale: string): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'always',
  }).format(value as Intl.StringNumericLiteral);
}

/**
 * A PnL amount in the trade's quote currency, with its sign and an arrow (never colour alone).
 * The quote is in the Symbol column; the tooltip gives the exact amount with it.
 */
export function SignedAmount({ value, unit }: { value: string | null; unit: string }) {
  const { t } = useTranslation();
  const { locale } = useFormatters();
  const sign = signOf(value ?? undefined);
  if (value === null) return <span className="text-subtle">—</span>;
  return (
    <span
      title={unit ? `${formatDecimal(value, { locale, signDisplay: 'always' })} ${unit}` : undefined}
      className={cn(
        'num inline-flex items-center gap-1',
        sign > 0 ? 'text-gain' : sign < 0 ? 'text-loss' : 'text-muted',
      )}
    >
      <span aria-hidden="true" className="text-[0.8em]">
        {sign > 0 ? '▲' : sign < 0 ? '▼' : '■'}
      </span>
      <span className="sr-only">{sign > 0 ? t('pnl.gain') : sign < 0 ? t('pnl.loss') : t('pnl.flat')} </span>
      {formatPnlAmount(value, locale)}
    </span>
  );
}

/** Spec §2: time, symbol, side, qty, entry, exit, PnL, PnL %, commission, duration, status; 50 a page. */
export function BotTradesTable({ botId, enabled = true }: { botId: string; enabled?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const trades = useBotTrades(botId, page, { enabled });
  const figures = useMarketFigures(trades.data?.items);
  // Prices to the market's tick; their quote is in the Symbol column (eleven columns fit 1280 px), the
  // tooltip says it.
  const price = (trade: TradeRow, value: string | null) =>
    value === null ? (
      <span className="text-subtle">—</span>
    ) : (
      <span title={figures.price(trade, value)}>{figures.price(trade, value, { unit: false })}</span>
    );

  const columns: Column<TradeRow>[] = [
    {
      key: 'time',
      header: t('trades.columns.time'),
      cell: (trade) => (
        <Link
          to={paths.trade(trade.id)}
          onClick={(event) => event.stopPropagation()}
          className="num text-fg hover:text-accent"
        >
          <time dateTime={trade.openedAt} title={format.dateTime(trade.openedAt)}>
            {format.time(trade.openedAt, 'compact')}
          </time>
        </Link>
      ),
    },
    { key: 'symbol', header: t('trades.columns.symbol'), cell: (trade) => trade.symbol },
    {
      key: 'side',
      header: t('trades.columns.side'),
      cell: (trade) =>
        trade.side === 'long' ? (
          <span className="text-gain">▲ {t('position.long')}</span>
        ) : (
          <span className="text-loss">▼ {t('position.short')}</span>
        ),
    },
    {
      key: 'qty',
      header: t('trades.columns.qty'),
      numeric: true,
      cell: (trade) => figures.quantity(trade, trade.quantity),
    },
    {
      key: 'entry',
      header: t('trades.columns.entry'),
      numeric: true,
      cell: (trade) => price(trade, trade.entryPrice),
    },
    {
      key: 'exit',
      header: t('trades.columns.exit'),
      numeric: true,
      cell: (trade) => price(trade, trade.exitPrice),
    },
    {
      key: 'pnl',
      header: t('trades.columns.pnl'),
      numeric: true,
      cell: (trade) => <SignedAmount value={trade.pnl} unit={quoteOf(trade.symbol)} />,
    },
    {
      key: 'pnlPercent',
      header: t('trades.columns.pnlPercent'),
      numeric: true,
      cell: (trade) =>
        trade.pnlPercent === null ? (
          <span className="text-subtle">—</span>
        ) : (
          <PnlText value={trade.pnlPercent} kind="percent" />
        ),
    },
    {
      key: 'commission',
      header: t('trades.columns.commission'),
      numeric: true,
      cell: (trade) => formatMoney(trade.commission, quoteOf(trade.symbol), { locale: format.locale }),
    },
    {
      key: 'duration',
      header: t('trades.columns.duration'),
      numeric: true,
      cell: (trade) => formatDuration(tradeDuration(trade), t),
    },
    {
      key: 'status',
      header: t('trades.columns.status'),
      cell: (trade) => <TradeStatusBadge trade={trade} />,
    },
  ];

  const open = trades.data?.items.find((trade) => trade.status === 'open' || trade.status === 'closing');
  // Eleven columns (spec §2) fit a 1280 px screen beside the sidebar with slightly tighter cells.
  return (
    <div className="flex flex-col gap-3 [&_td]:px-2 [&_th]:px-2">
      {open ? (
        <OpenTradeStrip
          trade={open}
          currentPrice={open.currentPrice ? figures.price(open, open.currentPrice) : '—'}
        />
      ) : null}
      <TableOrCards
        caption={t('trades.title')}
        columns={columns}
        rows={trades.data?.items ?? []}
        rowKey={(trade) => trade.id}
        {...queryState(trades)}
        onRowClick={(trade) => void navigate(paths.trade(trade.id))}
        card={(trade) => (
          <BotTradeCard
            trade={trade}
            quantity={figures.quantity(trade, trade.quantity)}
            duration={formatDuration(tradeDuration(trade), t)}
          />
        )}
        empty={<EmptyState title={t('trades.empty.title')} description={t('trades.empty.description')} />}
        pagination={{
          page,
          pageSize: trades.data?.pageSize ?? TRADES_PAGE_SIZE,
          total: trades.data?.total ?? 0,
          onPageChange: setPage,
        }}
      />
    </div>
  );
}

/** One of the bot's trades on a phone (< 640 px, issue 21): side, size, PnL, status and when, opening the trade. */
function BotTradeCard({
  trade,
  quantity,
  duration,
}: {
  trade: TradeRow;
  quantity: string;
  duration: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <TradeCard
      tradeId={trade.id}
      symbol={trade.symbol}
      side={trade.side}
      corner={<TradeStatusBadge trade={trade} />}
      left={{ label: t('trades.columns.qty'), value: quantity }}
      right={{
        label: t('trades.columns.pnl'),
        value: <SignedAmount value={trade.pnl} unit={quoteOf(trade.symbol)} />,
      }}
      footer={
        <>
          <time dateTime={trade.openedAt}>{format.time(trade.openedAt, 'compact')}</time>
          <span className="num">{duration}</span>
        </>
      }
    />
  );
}

/** The bot's open trade at the last price (issue 21): what it holds, the price now and the unrealised PnL. */
function OpenTradeStrip({ trade, currentPrice }: { trade: TradeRow; currentPrice: ReactNode }) {
  const { t } = useTranslation();
  const quote = quoteOf(trade.symbol);
  return (
    <Link
      to={paths.trade(trade.id)}
      aria-label={t('trades.unrealised.openTrade', { symbol: trade.symbol })}
      className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-lg border border-line bg-surface px-4 py-3 hover:border-line-strong"
    >
      <span className="flex items-center gap-2 text-sm">
        <span className="font-medium text-fg">{trade.symbol}</span>
        <SideText side={trade.side} />
      </span>
      <span className="flex flex-col text-sm">
        <span className="text-xs text-muted">{t('trades.unrealised.currentPrice')}</span>
        <span className="num text-fg">{currentPrice}</span>
      </span>
      <span className="flex flex-col text-sm">
        <span className="text-xs text-muted">{t('trades.unrealised.unrealisedPnl')}</span>
        <span className="flex flex-wrap items-center gap-x-2">
          <SignedValue value={trade.unrealisedPnl} unit={quote} />
          <UnrealisedPercents trade={trade} />
        </span>
      </span>
    </Link>
  );
}
