import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { AuditLog } from '../../../features/admin-audit/components/audit-log';

export function AdminAuditRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('audit.title')} description={t('audit.description')} />
      <AuditLog />
    </>
  );
}

export { AdminAuditRoute as Component };
