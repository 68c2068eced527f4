import { useTranslation } from 'react-i18next';
import { Card, Stat } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { ErrorState } from '../../../components/ui/states';
import { field, flag, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { useBillingUser } from '../api/get-billing-user';

export function UserBillingSummary({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const billing = useBillingUser(userId);
  if (billing.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[74px] rounded-lg" />
        ))}
      </div>
    );
  }
  if (billing.isError) {
    return (
      <Card>
        <ErrorState error={billing.error} onRetry={() => void billing.refetch()} />
      </Card>
    );
  }
  const plan = field(billing.data, 'plan') ?? billing.data;
  const yesNo = (value: boolean | undefined) =>
    value === undefined ? '—' : value ? t('common.yes') : t('common.no');
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Stat
        label={t('billing.detail.email')}
        value={
          <span className="text-sm">
            {text(field(billing.data, 'user'), 'email') ?? text(billing.data, 'email') ?? '—'}
          </span>
        }
      />
      <Stat
        label={t('billing.columns.planPercent')}
        value={format.percent(numeric(plan, 'percent', 'planPercent'))}
      />
      <Stat label={t('billing.columns.active')} value={yesNo(flag(plan, 'active'))} />
      <Stat
        label={t('billing.detail.highWaterMark')}
        value={format.currencyValue(numeric(billing.data, 'highWaterMark', 'hwm'))}
      />
    </div>
  );
}
