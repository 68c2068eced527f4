import { useTranslation } from 'react-i18next';
import { Card, Stat } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { StatusBadge } from '../../../components/ui/status-badge';
import { field, text } from '../../../lib/fields';
import { useStrategyTradeStatus } from '../api/get-strategy-trade-status';

function count(value: unknown): string {
  if (Array.isArray(value)) return String(value.length);
  if (typeof value === 'number') return String(value);
  return '—';
}

/** Spec §2: per strategy, its status, bots, active trades and open orders. */
export function StrategyTradeStatus({ strategyId }: { strategyId: string }) {
  const { t } = useTranslation();
  const status = useStrategyTradeStatus(strategyId);
  if (status.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[74px] rounded-lg" />
        ))}
      </div>
    );
  }
  if (status.isError) {
    return (
      <Card>
        <ErrorState error={status.error} onRetry={() => void status.refetch()} />
      </Card>
    );
  }
  const data = status.data;
  const strategyStatus = text(field(data, 'strategy'), 'status') ?? text(data, 'status');
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Stat
        label={t('tradeControl.strategyStatus')}
        value={strategyStatus ? <StatusBadge status={strategyStatus} /> : '—'}
      />
      <Stat label={t('tradeControl.bots')} value={count(field(data, 'bots', 'botCount'))} />
      <Stat label={t('tradeControl.activeTrades')} value={count(field(data, 'activeTrades', 'trades'))} />
      <Stat label={t('tradeControl.openOrders')} value={count(field(data, 'openOrders', 'orders'))} />
    </div>
  );
}
