import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { CardFigure, RowCard, TableOrCards } from '../../../components/ui/table-or-cards';
import { useFormatters } from '../../../lib/use-formatters';
import { type AdminWebhookRejection, useWebhookRejections } from '../api/get-webhook-rejections';

/**
 * Webhooks refused over the last 24 hours (issue 21): a TradingView alert with a wrong secret, an unknown
 * key or a bad body never becomes an alert, so without this the operator would not see it at all.
 */
export function WebhookRejections() {
  const { t } = useTranslation();
  const format = useFormatters();
  const rejections = useWebhookRejections(24);
  if (rejections.isPending) return <Skeleton className="h-20" />;
  if (rejections.isError)
    return <ErrorState error={rejections.error} onRetry={() => void rejections.refetch()} />;
  if (rejections.data.length === 0) return null;
  const columns: Column<AdminWebhookRejection>[] = [
    {
      key: 'strategy',
      header: t('alerts.rejections.strategy'),
      cell: (r) => (
        <span className="flex flex-col">
          <span className="num">{r.strategyKey || t('alerts.rejections.noKey')}</span>
          <span className="text-xs text-muted">
            {r.strategyNickname
              ? `${r.strategyNickname} · ${r.ownerEmail ?? ''}`
              : t('alerts.rejections.unknownStrategy')}
          </span>
        </span>
      ),
    },
    {
      key: 'reason',
      header: t('alerts.rejections.reason'),
      cell: (r) => <span className="num">{r.reason}</span>,
    },
    { key: 'count', header: t('alerts.rejections.count'), numeric: true, cell: (r) => r.count },
    {
      key: 'last',
      header: t('alerts.rejections.last'),
      cell: (r) => (
        <span className="flex flex-col">
          <span>{format.dateTime(r.lastAt)}</span>
          {r.lastAddress ? <span className="num text-xs text-muted">{r.lastAddress}</span> : null}
        </span>
      ),
    },
  ];
  return (
    <Card className="flex flex-col gap-2 p-4">
      <div>
        <h2 className="text-sm font-semibold text-fg">{t('alerts.rejections.title')}</h2>
        <p className="mt-0.5 text-xs text-muted">{t('alerts.rejections.description')}</p>
      </div>
      <TableOrCards
        caption={t('alerts.rejections.title')}
        columns={columns}
        rows={rejections.data}
        rowKey={(r) => `${r.strategyKey}|${r.reason}`}
        // Below 640 px a card a refusal (issue 21: the four columns scrolled sideways on a phone).
        card={(r, cell) => (
          <RowCard
            raised
            title={cell('strategy')}
            corner={
              <CardFigure label={t('alerts.rejections.count')} end>
                {r.count}
              </CardFigure>
            }
          >
            <CardFigure label={t('alerts.rejections.reason')}>{cell('reason')}</CardFigure>
            <CardFigure label={t('alerts.rejections.last')}>{cell('last')}</CardFigure>
          </RowCard>
        )}
        empty={null}
      />
    </Card>
  );
}
