import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { DashboardOverview } from '../../features/dashboard/components/dashboard-overview';

export function DashboardRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('dashboard.title')} description={t('dashboard.description')} />
      <DashboardOverview />
    </>
  );
}

export { DashboardRoute as Component };
