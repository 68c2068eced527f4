import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { AlertsTable } from '../../../features/admin-alerts/components/alerts-table';

export function AdminAlertsRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('alerts.title')} description={t('alerts.description')} />
      <AlertsTable />
    </>
  );
}

export { AdminAlertsRoute as Component };
