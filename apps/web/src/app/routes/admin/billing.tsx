import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import {
  BillingDashboard,
  ProcessMonthAction,
} from '../../../features/admin-billing/components/billing-dashboard';

export function AdminBillingDashboardRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t('billing.title')}
        description={t('billing.description')}
        actions={<ProcessMonthAction />}
      />
      <BillingDashboard />
    </>
  );
}

export { AdminBillingDashboardRoute as Component };
