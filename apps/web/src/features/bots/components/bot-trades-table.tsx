import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PnlText } from '../../../components/ui/pnl-text';
import { StatusBadge } from '../../../components/ui/status-badge';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { type Row, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { TRADES_PAGE_SIZE, useBotTrades } from '../api/get-bot-trades';

function formatDuration(ms: number, t: TFunction): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return t('duration.daysHours', { days, hours });
  if (hours > 0) return t('duration.hoursMinutes', { hours, minutes: minutes % 60 });
  return t('duration.minutes', { minutes });
}

function duration(trade: Row, t: TFunction): string {
  const opened = Date.parse(text(trade, 'openedAt', 'opened_at', 'createdAt', 'created_at') ?? '');
  const closed = Date.parse(text(trade, 'closedAt', 'closed_at') ?? '') || Date.now();
  return Number.isNaN(opened) ? '—' : formatDuration(closed - opened, t);
}

/** Spec §2: time, symbol, side, qty, entry, exit, PnL, PnL %, commission, duration, status. */
export function BotTradesTable({ botId }: { botId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const trades = useBotTrades(botId, page);

  const columns: Column<Row>[] = [
    {
      key: 'time',
      header: t('trades.columns.time'),
      cell: (trade) => format.dateTime(text(trade, 'openedAt', 'opened_at', 'createdAt', 'created_at')),
    },
    { key: 'symbol', header: t('trades.columns.symbol'), cell: (trade) => text(trade, 'symbol') ?? '—' },
    {
      key: 'side',
      header: t('trades.columns.side'),
      cell: (trade) => {
        const side = (text(trade, 'side', 'position') ?? '').toLowerCase();
        const long = side === 'long' || side === 'buy';
        return side ? (
          <span className={long ? 'text-gain' : 'text-loss'}>
            {long ? t('position.long') : t('position.short')}
          </span>
        ) : (
          '—'
        );
      },
    },
    {
      key: 'qty',
      header: t('trades.columns.qty'),
      numeric: true,
      cell: (trade) => format.decimal(numeric(trade, 'qty', 'quantity', 'amount')),
    },
    {
      key: 'entry',
      header: t('trades.columns.entry'),
      numeric: true,
      cell: (trade) => format.decimal(numeric(trade, 'entryPrice', 'entry_price', 'entry')),
    },
    {
      key: 'exit',
      header: t('trades.columns.exit'),
      numeric: true,
      cell: (trade) => format.decimal(numeric(trade, 'exitPrice', 'exit_price', 'exit')),
    },
    {
      key: 'pnl',
      header: t('trades.columns.pnl'),
      numeric: true,
      cell: (trade) => <PnlText value={numeric(trade, 'pnl', 'realizedPnl', 'realized_pnl')} />,
    },
    {
      key: 'pnlPercent',
      header: t('trades.columns.pnlPercent'),
      numeric: true,
      cell: (trade) => <PnlText value={numeric(trade, 'pnlPercent', 'pnl_percent')} kind="percent" />,
    },
    {
      key: 'commission',
      header: t('trades.columns.commission'),
      numeric: true,
      cell: (trade) => format.decimal(numeric(trade, 'commission', 'fees', 'fee')),
    },
    {
      key: 'duration',
      header: t('trades.columns.duration'),
      numeric: true,
      cell: (trade) => duration(trade, t),
    },
    {
      key: 'status',
      header: t('trades.columns.status'),
      cell: (trade) => <StatusBadge status={text(trade, 'status') ?? '—'} />,
    },
  ];

  return (
    <Table
      caption={t('trades.title')}
      columns={columns}
      rows={trades.data?.items}
      rowKey={(trade) => text(trade, 'id') ?? JSON.stringify(trade)}
      loading={trades.isPending}
      error={trades.isError ? trades.error : undefined}
      onRetry={() => void trades.refetch()}
      onRowClick={(trade) => {
        const id = text(trade, 'id');
        if (id) void navigate(paths.trade(id));
      }}
      empty={<EmptyState title={t('trades.empty.title')} description={t('trades.empty.description')} />}
      pagination={{
        page,
        pageSize: trades.data?.pageSize ?? TRADES_PAGE_SIZE,
        total: trades.data?.total ?? 0,
        onPageChange: setPage,
      }}
    />
  );
}
