import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { AdminAlerts } from '../../../features/admin-alerts/components/admin-alerts';

export function AdminAlertsRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('alerts.title')} description={t('alerts.description')} />
      <AdminAlerts />
    </>
  );
}

export { AdminAlertsRoute as Component };
