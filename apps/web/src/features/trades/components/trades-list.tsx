import { TRADE_STATUSES } from '@kairos/contract';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { EmptyState, queryState } from '../../../components/ui/states';
import type { Column } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { translateMessage } from '../../../i18n/translate-message';
import { dayBound } from '../../../lib/day-bound';
import { useFormatters } from '../../../lib/use-formatters';
import { TRADES_PAGE_SIZE, type TradeRow, type TradesFilters, useTrades } from '../api/get-trades';
import { NoMatch, TableOrCards } from '../../../components/ui/table-or-cards';
import { useMarketFigures } from '../hooks/use-market-figures';
import { isAwaitingEntry } from '../utils/trade-figures';
import { SideText, SignedValue, TradeStatusBadge } from './trade-badges';
import { useSearchWriter } from '../../../lib/use-search-writer';
import { TradeCard } from './trade-card';

/** A bot or a trading account as the filters and the Bot column name it (composed by the route). */
export interface NamedItem {
  id: string;
  name: string;
}

type TradeStatus = (typeof TRADE_STATUSES)[number];

/** The contract's rule for a market (`BTC/USDT`, `btc-usdt`): anything else is refused before asking. */
const SYMBOL = /^[A-Za-z0-9]+[/-][A-Za-z0-9]+$/;
const SYMBOL_MESSAGE = 'Please choose a market such as BTC/USDT';

export { dayBound };

/** The filters live in the address (`?status=closed&bot=…&page=2`): a reload or a shared link keeps them. */
export function filtersFromSearch(search: URLSearchParams): TradesFilters {
  const status = search.get('status');
  const symbol = search.get('symbol') ?? '';
  const page = Number(search.get('page'));
  return {
    status: (TRADE_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as TradeStatus)
      : undefined,
    botId: search.get('bot') || undefined,
    accountId: search.get('account') || undefined,
    symbol: SYMBOL.test(symbol) ? symbol.replace('-', '/').toUpperCase() : undefined,
    from: dayBound(search.get('from') ?? '', false),
    to: dayBound(search.get('to') ?? '', true),
    page: Number.isInteger(page) && page > 1 ? page : 1,
    pageSize: TRADES_PAGE_SIZE,
  };
}

const FILTER_KEYS = ['status', 'bot', 'account', 'symbol', 'from', 'to'] as const;

/** The quote currency of a symbol, the unit of its prices and PnL: "BTC/USDT:USDT" → "USDT". */
const quoteOf = (symbol: string) => symbol.split('/')[1]?.split(':')[0] ?? '';

const hasFunding = (trade: TradeRow) => Number(trade.funding) !== 0;

/**
 * Every trade of the user (issue 21): the bots' and the manual ones, in every status, newest first, with
 * filters and pages; a row opens the trade. Phones (< 640 px) get one card a trade.
 */
export function TradesList({ bots, accounts }: { bots: NamedItem[]; accounts: NamedItem[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const format = useFormatters();
  const [search, setSearch] = useSearchWriter();
  const filters = filtersFromSearch(search);
  const trades = useTrades(filters);
  const figures = useMarketFigures(trades.data?.items);
  const [symbol, setSymbol] = useState(search.get('symbol') ?? '');
  const symbolError = symbol.trim() && !SYMBOL.test(symbol.trim()) ? translateMessage(t, SYMBOL_MESSAGE) : '';
  const filtered = FILTER_KEYS.some((key) => search.get(key));

  const setFilter = (key: (typeof FILTER_KEYS)[number] | 'page', value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        if (key !== 'page') next.delete('page'); // a new filter starts again at its first page
        return next;
      },
      { replace: key !== 'page' },
    );
  const applySymbol = (event: FormEvent) => {
    event.preventDefault();
    if (!symbolError) setFilter('symbol', symbol.trim());
  };
  const clearFilters = () => {
    setSymbol('');
    setSearch(() => new URLSearchParams(), { replace: true });
  };

  const botName = (trade: TradeRow) =>
    trade.botId === null ? t('tradeList.manual') : (bots.find((bot) => bot.id === trade.botId)?.name ?? '—');
  const quantity = (trade: TradeRow) =>
    isAwaitingEntry(trade) ? <span className="text-subtle">—</span> : figures.quantity(trade, trade.quantity);
  const price = (trade: TradeRow, value: string | null) =>
    value === null ? <span className="text-subtle">—</span> : figures.price(trade, value);
  const opened = (trade: TradeRow) => (
    <time dateTime={trade.openedAt} title={format.dateTime(trade.openedAt)}>
      {format.time(trade.openedAt, 'compact')}
    </time>
  );

  const items = trades.data?.items ?? [];
  const columns: Column<TradeRow>[] = [
    {
      key: 'opened',
      header: t('tradeList.columns.opened'),
      cell: (trade) => (
        <Link
          to={paths.trade(trade.id)}
          onClick={(event) => event.stopPropagation()}
          className="num text-fg hover:text-accent"
        >
          {opened(trade)}
        </Link>
      ),
    },
    { key: 'symbol', header: t('trades.columns.symbol'), cell: (trade) => trade.symbol },
    { key: 'side', header: t('trades.columns.side'), cell: (trade) => <SideText side={trade.side} /> },
    {
      key: 'bot',
      header: t('tradeList.columns.bot'),
      cell: (trade) => (
        <span className={trade.botId === null ? 'text-muted' : undefined}>{botName(trade)}</span>
      ),
    },
    {
      key: 'status',
      header: t('trades.columns.status'),
      cell: (trade) => <TradeStatusBadge trade={trade} />,
    },
    {
      key: 'quantity',
      header: t('tradeList.columns.quantity'),
      numeric: true,
      // A resting limit entry holds nothing yet: an order (see Orders), not a position of "0.0000".
      cell: (trade) => quantity(trade),
    },
    {
      // Entry over exit, each in its quote: the columns fit 1280 px beside the sidebar, funding included.
      key: 'entry',
      header: (
        <span className="flex flex-col">
          <span>{t('trades.columns.entry')}</span>
          <span className="font-normal text-subtle">{t('trades.columns.exit')}</span>
        </span>
      ),
      numeric: true,
      cell: (trade) => (
        <span className="flex flex-col">
          <span>{price(trade, trade.entryPrice)}</span>
          <span className="text-xs text-muted">{price(trade, trade.exitPrice)}</span>
        </span>
      ),
    },
    {
      key: 'pnl',
      header: t('trades.columns.pnl'),
      numeric: true,
      cell: (trade) => <SignedValue value={trade.pnl} unit={quoteOf(trade.symbol)} />,
    },
    // Futures funding: a column only when a trade of the page has some.
    ...(items.some(hasFunding)
      ? [
          {
            key: 'funding',
            header: t('tradeList.columns.funding'),
            numeric: true,
            cell: (trade: TradeRow) =>
              hasFunding(trade) ? (
                <SignedValue value={trade.funding} unit={quoteOf(trade.symbol)} />
              ) : (
                <span className="text-subtle">—</span>
              ),
          },
        ]
      : []),
  ];

  const pagination = {
    page: filters.page ?? 1,
    pageSize: trades.data?.pageSize ?? TRADES_PAGE_SIZE,
    total: trades.data?.total ?? 0,
    onPageChange: (page: number) => setFilter('page', page > 1 ? String(page) : ''),
  };

  const empty = filtered ? (
    <NoMatch
      title={t('tradeList.noMatch.title')}
      description={t('tradeList.noMatch.description')}
      clearLabel={t('tradeList.filters.clear')}
      onClear={clearFilters}
    />
  ) : (
    <EmptyState title={t('tradeList.empty.title')} description={t('tradeList.empty.description')} />
  );
  const body = (
    <TableOrCards
      {...queryState(trades)}
      empty={empty}
      caption={t('tradeList.caption')}
      columns={columns}
      rows={items}
      rowKey={(trade) => trade.id}
      onRowClick={(trade) => void navigate(paths.trade(trade.id))}
      pagination={pagination}
      card={(trade) => <TradeListCard trade={trade} botName={botName(trade)} quantity={quantity(trade)} />}
    />
  );

  const anyOption = (label: string) => ({ value: '', label });
  // The six filters share a row only from 1536 px: beside the sidebar, narrower selects cut "Tous les statuts".
  return (
    <div className="flex flex-col gap-4">
      <section
        aria-label={t('tradeList.filters.label')}
        className="grid grid-cols-2 gap-3 rounded-lg border border-line bg-surface p-3 sm:grid-cols-3 2xl:grid-cols-6"
      >
        <Select
          label={t('tradeList.filters.status')}
          value={search.get('status') ?? ''}
          onChange={(event) => setFilter('status', event.target.value)}
          options={[
            anyOption(t('tradeList.filters.anyStatus')),
            ...TRADE_STATUSES.map((status) => ({ value: status, label: t(`tradeList.statuses.${status}`) })),
          ]}
        />
        <Select
          label={t('tradeList.filters.bot')}
          value={search.get('bot') ?? ''}
          onChange={(event) => setFilter('bot', event.target.value)}
          options={[
            anyOption(t('tradeList.filters.anyBot')),
            ...bots.map((bot) => ({ value: bot.id, label: bot.name })),
          ]}
        />
        <Select
          label={t('tradeList.filters.account')}
          value={search.get('account') ?? ''}
          onChange={(event) => setFilter('account', event.target.value)}
          options={[
            anyOption(t('tradeList.filters.anyAccount')),
            ...accounts.map((account) => ({ value: account.id, label: account.name })),
          ]}
        />
        <form onSubmit={applySymbol} onBlur={applySymbol}>
          <Input
            label={t('tradeList.filters.symbol')}
            placeholder={t('tradeList.filters.symbolPlaceholder')}
            value={symbol}
            onChange={(event) => setSymbol(event.target.value)}
            error={symbolError || undefined}
            autoCapitalize="characters"
            spellCheck={false}
          />
        </form>
        <Input
          type="date"
          label={t('tradeList.filters.from')}
          value={search.get('from') ?? ''}
          max={search.get('to') ?? undefined}
          onChange={(event) => setFilter('from', event.target.value)}
        />
        <Input
          type="date"
          label={t('tradeList.filters.to')}
          value={search.get('to') ?? ''}
          min={search.get('from') ?? undefined}
          onChange={(event) => setFilter('to', event.target.value)}
        />
        {filtered ? (
          <div className="col-span-full flex justify-end">
            <Button variant="ghost" size="sm" onClick={clearFilters}>
              {t('tradeList.filters.clear')}
            </Button>
          </div>
        ) : null}
      </section>
      {body}
    </div>
  );
}

/** A phone's row: symbol and side, status, size and PnL; the whole card opens the trade. */
function TradeListCard({
  trade,
  botName,
  quantity,
}: {
  trade: TradeRow;
  botName: string;
  quantity: ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <TradeCard
      tradeId={trade.id}
      symbol={trade.symbol}
      side={trade.side}
      corner={<TradeStatusBadge trade={trade} />}
      left={{ label: t('tradeList.card.size'), value: quantity }}
      right={{
        label: t('tradeList.card.pnl'),
        value: <SignedValue value={trade.pnl} unit={quoteOf(trade.symbol)} />,
      }}
      footer={
        <>
          <span>{botName}</span>
          <time dateTime={trade.openedAt}>{format.dateTime(trade.openedAt)}</time>
        </>
      }
    />
  );
}
