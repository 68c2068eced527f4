import type { TradeDetail } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { CardFigure, RowCard, TableOrCards } from '../../../components/ui/table-or-cards';
import { useFormatters } from '../../../lib/use-formatters';
import type { MarketFigures } from '../hooks/use-market-figures';
import { orderRoleLabel } from '../utils/order-role';
import { splitSymbol } from '../utils/trade-figures';
import { OrderStatusBadge } from './trade-badges';
import { formatMoney } from '../../../lib/money';

/** A timeline line with its place, so two fills in the same millisecond keep their own rows. */
type Entry = TradeDetail['timeline'][number] & { index: number };

/** 'entry', 'tp1', 'stop', 'venue-close' as the user reads them (`orderRoleLabel`). */
export function useRoleLabel() {
  const { t } = useTranslation();
  return (role: string) => orderRoleLabel(t, role);
}

/** Spec §2 (Trade detail) and issue 7: every order placed and every fill received, oldest first. */
export function TradeTimeline({ detail, figures }: { detail: TradeDetail; figures: MarketFigures }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const roleLabel = useRoleLabel();
  const { base, quote } = splitSymbol(detail.trade.symbol);
  const orders = new Map(detail.orders.map((order) => [order.id, order]));
  const fills = detail.fills;
  // Orders and fills of one trade are often seconds apart: the time shows them, the tooltip the full date.
  const timeOf = (at: string) => format.time(at, 'seconds');

  const columns: Column<Entry>[] = [
    {
      key: 'time',
      header: t('trades.timeline.columns.time'),
      cell: (entry) => (
        <time dateTime={entry.at} title={format.dateTime(entry.at)} className="num text-muted">
          {timeOf(entry.at)}
        </time>
      ),
    },
    {
      key: 'event',
      header: t('trades.timeline.columns.event'),
      cell: (entry) => {
        const order = orders.get(entry.orderId);
        if (entry.kind === 'fill') return <span className="text-fg">{t('trades.timeline.fill')}</span>;
        return (
          <span className="text-fg">
            {t(order?.type === 'market' ? 'trades.timeline.marketOrder' : 'trades.timeline.limitOrder')}
          </span>
        );
      },
    },
    {
      key: 'role',
      header: t('trades.timeline.columns.role'),
      cell: (entry) => <span className="font-medium">{roleLabel(entry.role)}</span>,
    },
    {
      key: 'side',
      header: t('trades.timeline.columns.side'),
      cell: (entry) => (
        <span className={entry.side === 'buy' ? 'text-gain' : 'text-loss'}>
          {entry.side === 'buy' ? '▲' : '▼'} {t(`trades.timeline.${entry.side}`)}
        </span>
      ),
    },
    {
      key: 'price',
      header: t('trades.timeline.columns.price', { quote }),
      numeric: true,
      cell: (entry) => figures.price(detail.trade, entry.price, { unit: false }),
    },
    {
      key: 'amount',
      header: t('trades.timeline.columns.amount', { base }),
      numeric: true,
      cell: (entry) => figures.quantity(detail.trade, entry.amount, { unit: false }),
    },
    {
      key: 'fee',
      className: 'hidden md:table-cell',
      header: t('trades.timeline.columns.fee'),
      numeric: true,
      cell: (entry) => {
        if (entry.kind !== 'fill') return <span className="text-subtle">—</span>;
        const fill = fills.find((row) => row.orderId === entry.orderId && row.at === entry.at);
        return fill ? formatMoney(fill.fee, fill.feeCurrency ?? '', { locale: format.locale }) : '—';
      },
    },
    {
      key: 'status',
      header: t('trades.timeline.columns.status'),
      cell: (entry) =>
        entry.kind === 'fill' ? (
          <OrderStatusBadge status="filled" />
        ) : (
          <OrderStatusBadge status={entry.status} error={orders.get(entry.orderId)} />
        ),
    },
  ];

  return (
    <Card>
      <CardHeader title={t('trades.timeline.title')} description={t('trades.timeline.description')} />
      <TableOrCards
        caption={t('trades.timeline.title')}
        columns={columns}
        rows={detail.timeline.map((entry, index) => ({ ...entry, index }))}
        rowKey={(entry) => String(entry.index)}
        maxHeight="none"
        flush
        // Below 640 px a card an order or fill (issue 21: the eight columns scrolled sideways on a phone).
        card={(entry, cell) => (
          <RowCard
            raised
            title={
              <span className="flex flex-wrap items-center gap-x-2">
                {cell('event')}
                {cell('role')}
                {cell('side')}
              </span>
            }
            corner={cell('status')}
          >
            <span className="flex justify-between gap-3">
              <CardFigure label={t('trades.timeline.columns.price', { quote })}>{cell('price')}</CardFigure>
              <CardFigure label={t('trades.timeline.columns.amount', { base })} end>
                {cell('amount')}
              </CardFigure>
            </span>
            <span className="flex items-end justify-between gap-2 text-xs">
              {cell('time')}
              {entry.kind === 'fill' ? (
                <span className="text-muted">
                  {t('trades.timeline.columns.fee')} <span className="num text-fg">{cell('fee')}</span>
                </span>
              ) : null}
            </span>
          </RowCard>
        )}
        empty={<EmptyState title={t('trades.timeline.empty')} className="py-6" />}
      />
    </Card>
  );
}
