import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { QuotaSettingsPanel } from '../../../features/admin-limits/components/quota-form';

export function AdminLimitsRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('limits.title')} description={t('limits.description')} />
      <QuotaSettingsPanel />
    </>
  );
}

export { AdminLimitsRoute as Component };
