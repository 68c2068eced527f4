import { useTranslation } from 'react-i18next';
import { Card, CardBody, CardHeader, Stat } from '../../../components/ui/card';
import { PnlText } from '../../../components/ui/pnl-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { StatusBadge } from '../../../components/ui/status-badge';
import { numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { useTrade } from '../api/get-trade';

export function TradeSummary({ tradeId }: { tradeId: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const trade = useTrade(tradeId);
  if (trade.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[74px] rounded-lg" />
        ))}
      </div>
    );
  }
  if (trade.isError) {
    return (
      <Card>
        <ErrorState error={trade.error} onRetry={() => void trade.refetch()} />
      </Card>
    );
  }
  const data = trade.data;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          label={t('trades.columns.pnl')}
          value={<PnlText value={numeric(data, 'pnl', 'realizedPnl')} />}
        />
        <Stat
          label={t('trades.columns.pnlPercent')}
          value={<PnlText value={numeric(data, 'pnlPercent')} kind="percent" />}
        />
        <Stat
          label={t('trades.columns.entry')}
          value={format.decimal(numeric(data, 'entryPrice', 'entry_price', 'entry'))}
        />
        <Stat
          label={t('trades.columns.exit')}
          value={format.decimal(numeric(data, 'exitPrice', 'exit_price', 'exit'))}
        />
      </div>
      <Card>
        <CardHeader
          title={t('trades.detail.summary')}
          actions={<StatusBadge status={text(data, 'status') ?? '—'} />}
        />
        <CardBody>
          <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-2.5 text-sm sm:grid-cols-[9rem_1fr_9rem_1fr]">
            <dt className="text-muted">{t('trades.columns.symbol')}</dt>
            <dd>{text(data, 'symbol') ?? '—'}</dd>
            <dt className="text-muted">{t('trades.columns.side')}</dt>
            <dd>{text(data, 'side', 'position') ?? '—'}</dd>
            <dt className="text-muted">{t('trades.columns.qty')}</dt>
            <dd className="num">{format.decimal(numeric(data, 'qty', 'quantity', 'amount'))}</dd>
            <dt className="text-muted">{t('trades.columns.commission')}</dt>
            <dd className="num">{format.decimal(numeric(data, 'commission', 'fees', 'fee'))}</dd>
            <dt className="text-muted">{t('trades.detail.opened')}</dt>
            <dd className="num">{format.dateTime(text(data, 'openedAt', 'opened_at', 'createdAt'))}</dd>
            <dt className="text-muted">{t('trades.detail.closed')}</dt>
            <dd className="num">{format.dateTime(text(data, 'closedAt', 'closed_at'))}</dd>
          </dl>
        </CardBody>
      </Card>
    </div>
  );
}
