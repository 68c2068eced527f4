import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Select } from '../../../components/ui/select';
import { EmptyState, queryState } from '../../../components/ui/states';
import type { Column } from '../../../components/ui/table';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { toast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../i18n/translate-message';
import { useFormatters } from '../../../lib/use-formatters';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useCompleteTrade } from '../api/complete-trade';
import { ORDERS_PAGE_SIZE, type OrdersScope, type UserOrder, useOrders } from '../api/get-orders';
import { useMarketFigures } from '../hooks/use-market-figures';
import { formatDuration } from '../utils/trade-figures';
import { CardFigure, TableOrCards } from '../../../components/ui/table-or-cards';
import { OrderStatusBadge } from './trade-badges';
import { useRoleLabel } from './trade-timeline';
import type { NamedItem } from './trades-list';
import { useSearchWriter } from '../../../lib/use-search-writer';

const SCOPES: readonly OrdersScope[] = ['open', 'all'];

/** The filters live in the address (`?scope=all&account=…&page=2`), as the Trades list's do. */
function filtersFromSearch(search: URLSearchParams) {
  const scope = search.get('scope') === 'all' ? ('all' as const) : ('open' as const);
  const page = Number(search.get('page'));
  return {
    scope,
    accountId: search.get('account') || undefined,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** An order's side as the user reads it: ▲ Buy / ▼ Sell. */
function OrderSide({ side }: { side: UserOrder['side'] }) {
  const { t } = useTranslation();
  return side === 'buy' ? (
    <span className="text-gain">▲ {t('orderList.side.buy')}</span>
  ) : (
    <span className="text-loss">▼ {t('orderList.side.sell')}</span>
  );
}

/** Cancels a cancellable order (an unfilled entry) through its trade, after a confirmation; one at a time. */
function useCancelOrder(figures: ReturnType<typeof useMarketFigures>) {
  const { t } = useTranslation();
  const complete = useCompleteTrade();
  const singleFlight = useSingleFlight();
  const cancel = (order: UserOrder) =>
    singleFlight(async () => {
      const confirmed = await confirmAction({
        title: t('orderList.cancel.title', { symbol: order.symbol }),
        message: (
          <>
            <span className="block">
              {t(order.side === 'buy' ? 'orderList.cancel.messageBuy' : 'orderList.cancel.messageSell', {
                amount: figures.quantity(order, order.amount),
                price: figures.price(order, order.price),
                account: order.accountName,
              })}
            </span>
            <span className="mt-2 block text-muted">{t('orderList.cancel.race')}</span>
          </>
        ),
        confirmLabel: t('orderList.cancel.confirm'),
        cancelLabel: t('orderList.cancel.keep'),
        tone: 'danger',
      });
      if (!confirmed) return;
      await complete.mutateAsync(order.tradeId).then(
        (result) => {
          if (result.status === 'cancelled')
            toast.success(t('orderList.cancel.done', { symbol: order.symbol }));
          // It filled before the cancellation reached the exchange: what was bought was sold at market.
          else if (result.completed) toast.info(t('orderList.cancel.filledFirst', { symbol: order.symbol }));
          else toast.info(t('orderList.cancel.sent', { symbol: order.symbol }));
        },
        (error: unknown) =>
          toast.error(t('orderList.cancel.failed'), { description: errorMessage(t, error) }),
      );
    });
  return { cancel, cancelling: complete.isPending ? complete.variables : undefined };
}

/**
 * The user's orders (issue 21): a pending order is an order (price, amount, filled %, status, account,
 * age), not a position. An unfilled entry can be cancelled here (its trade is completed: nothing was bought,
 * so nothing is sold); any other order belongs to a position and opens its trade. Phones get one card each.
 */
export function OrdersList({ accounts }: { accounts: NamedItem[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const roleLabel = useRoleLabel();
  const [search, setSearch] = useSearchWriter();
  const filters = filtersFromSearch(search);
  const orders = useOrders(filters);
  const figures = useMarketFigures(orders.data?.items);
  const { cancel, cancelling } = useCancelOrder(figures);
  // Ages as of the last read (a live order event reads again).
  const now = orders.dataUpdatedAt;

  const setFilter = (key: 'scope' | 'account' | 'page', value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        if (key !== 'page') next.delete('page');
        return next;
      },
      { replace: key !== 'page' },
    );

  const age = (order: UserOrder) => formatDuration(now - Date.parse(order.createdAt), t);
  const price = (order: UserOrder) =>
    order.price === null ? (
      <span className="text-muted">{t('orderList.market')}</span>
    ) : (
      figures.price(order, order.price)
    );
  const amount = (order: UserOrder) => figures.quantity(order, order.amount);
  const filled = (order: UserOrder) => (
    <span className="flex flex-col items-end">
      <span>{format.percent(order.filledPercent)}</span>
      <span className="h-1 w-14 overflow-hidden rounded-full bg-surface-3" aria-hidden="true">
        <span
          className="block h-full bg-accent"
          style={{ width: `${Math.min(100, Number(order.filledPercent))}%` }}
        />
      </span>
    </span>
  );
  const action = (order: UserOrder) =>
    order.cancellable ? (
      <Button
        variant="secondary"
        size="sm"
        className="hover:text-loss"
        loading={cancelling === order.tradeId}
        onClick={() => void cancel(order)}
        aria-label={t('orderList.cancel.actionFor', { symbol: order.symbol, role: roleLabel(order.role) })}
      >
        {t('orderList.cancel.action')}
      </Button>
    ) : (
      <Link to={paths.trade(order.tradeId)} className="text-sm whitespace-nowrap text-accent hover:underline">
        {t('orderList.openTrade')}
      </Link>
    );
  const origin = (order: UserOrder) => (
    <span className="flex flex-col">
      <span className="inline-flex items-center gap-1.5">
        {order.accountName}
        {order.sandbox ? <TestnetBadge /> : null}
      </span>
      <span className="text-xs text-muted">{order.botName ?? t('orderList.manual')}</span>
    </span>
  );

  const columns: Column<UserOrder>[] = [
    {
      key: 'symbol',
      header: t('trades.columns.symbol'),
      cell: (order) => (
        <span className="flex flex-col">
          <span className="inline-flex items-center gap-1.5">
            <span className="font-medium text-fg">{order.symbol}</span>
            <OrderSide side={order.side} />
          </span>
          <span className="text-xs text-muted">
            {roleLabel(order.role)} · {t(`orderList.types.${order.type}`)}
          </span>
        </span>
      ),
    },
    { key: 'account', header: t('orderList.columns.account'), cell: origin },
    { key: 'price', header: t('orderList.columns.price'), numeric: true, cell: price },
    { key: 'amount', header: t('orderList.columns.amount'), numeric: true, cell: amount },
    { key: 'filled', header: t('orderList.columns.filled'), numeric: true, cell: filled },
    {
      key: 'status',
      header: t('trades.columns.status'),
      cell: (order) => <OrderStatusBadge status={order.status} error={order} />,
    },
    {
      key: 'age',
      header: t('orderList.columns.age'),
      cell: (order) => (
        <time dateTime={order.createdAt} title={format.dateTime(order.createdAt)} className="num text-muted">
          {age(order)}
        </time>
      ),
    },
    { key: 'action', header: <span className="sr-only">{t('orderList.columns.action')}</span>, cell: action },
  ];

  const items = orders.data?.items ?? [];
  const pagination = {
    page: filters.page,
    pageSize: orders.data?.pageSize ?? ORDERS_PAGE_SIZE,
    total: orders.data?.total ?? 0,
    onPageChange: (page: number) => setFilter('page', page > 1 ? String(page) : ''),
  };

  const empty =
    filters.scope === 'open' ? (
      <EmptyState
        title={t('orderList.empty.title')}
        description={t('orderList.empty.description')}
        actions={
          <Button variant="secondary" onClick={() => setFilter('scope', 'all')}>
            {t('orderList.empty.showAll')}
          </Button>
        }
      />
    ) : (
      <EmptyState title={t('orderList.none.title')} description={t('orderList.none.description')} />
    );
  const body = (
    <TableOrCards
      {...queryState(orders)}
      empty={empty}
      caption={t('orderList.caption')}
      columns={columns}
      rows={items}
      rowKey={(order) => order.id}
      pagination={pagination}
      card={(order) => (
        <div className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm">
          <span className="flex items-center justify-between gap-2">
            <span className="flex flex-wrap items-center gap-x-2">
              <span className="font-medium text-fg">{order.symbol}</span>
              <OrderSide side={order.side} />
              <span className="text-xs text-muted">{roleLabel(order.role)}</span>
            </span>
            <OrderStatusBadge status={order.status} error={order} />
          </span>
          <span className="flex justify-between gap-3">
            <CardFigure label={t('orderList.columns.price')} className="whitespace-nowrap">
              {price(order)}
            </CardFigure>
            <CardFigure label={t('orderList.columns.amount')} className="whitespace-nowrap">
              {amount(order)}
            </CardFigure>
            <CardFigure label={t('orderList.columns.filled')} end className="whitespace-nowrap">
              {format.percent(order.filledPercent)}
            </CardFigure>
          </span>
          <span className="flex items-end justify-between gap-2">
            <span className="flex flex-col text-xs text-muted">
              <span>
                {order.accountName} · {order.botName ?? t('orderList.manual')}
              </span>
              <time dateTime={order.createdAt}>{t('orderList.card.age', { age: age(order) })}</time>
            </span>
            {action(order)}
          </span>
        </div>
      )}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      <section
        aria-label={t('tradeList.filters.label')}
        className="flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3"
      >
        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium text-fg" aria-hidden="true">
            {t('orderList.filters.scope')}
          </span>
          <SegmentedControl
            label={t('orderList.filters.scope')}
            options={SCOPES.map((scope) => ({ value: scope, label: t(`orderList.scopes.${scope}`) }))}
            value={filters.scope}
            onChange={(scope) => setFilter('scope', scope === 'open' ? '' : scope)}
          />
        </div>
        <Select
          fieldClassName="min-w-48"
          label={t('tradeList.filters.account')}
          value={search.get('account') ?? ''}
          onChange={(event) => setFilter('account', event.target.value)}
          options={[
            { value: '', label: t('tradeList.filters.anyAccount') },
            ...accounts.map((account) => ({ value: account.id, label: account.name })),
          ]}
        />
      </section>
      {body}
    </div>
  );
}
