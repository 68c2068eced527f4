import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { BillingUsersTable } from '../../../features/admin-billing/components/billing-users-table';

export function AdminBillingDashboardRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('billing.title')} description={t('billing.description')} />
      <BillingUsersTable />
    </>
  );
}

export { AdminBillingDashboardRoute as Component };
