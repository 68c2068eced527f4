import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { PageHeader } from '../../../components/ui/page-header';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { StrategyTradeStatus } from '../../../features/admin-trade-control/components/strategy-trade-status';
import { useStrategies } from '../../../features/strategies/api/get-strategies';
import { text } from '../../../lib/fields';

export function AdminTradeControlRoute() {
  const { t } = useTranslation();
  const strategies = useStrategies();
  const [selected, setSelected] = useState<string>('');
  const options = (strategies.data ?? []).flatMap((strategy) => {
    const id = text(strategy, 'id');
    return id ? [{ value: id, label: text(strategy, 'nickname', 'strategyKey') ?? id }] : [];
  });
  const strategyId = selected || options[0]?.value;

  let body;
  if (strategies.isPending) body = <Skeleton className="h-9 w-72" />;
  else if (strategies.isError) {
    body = (
      <Card>
        <ErrorState error={strategies.error} onRetry={() => void strategies.refetch()} />
      </Card>
    );
  } else if (options.length === 0 || !strategyId) {
    body = (
      <Card>
        <EmptyState title={t('tradeControl.empty.title')} description={t('tradeControl.empty.description')} />
      </Card>
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <Select
          label={t('tradeControl.strategy')}
          value={strategyId}
          onChange={(event) => setSelected(event.target.value)}
          options={options}
          fieldClassName="max-w-xs"
        />
        <StrategyTradeStatus strategyId={strategyId} />
      </div>
    );
  }

  return (
    <>
      <PageHeader title={t('tradeControl.title')} description={t('tradeControl.description')} />
      {body}
    </>
  );
}

export { AdminTradeControlRoute as Component };
