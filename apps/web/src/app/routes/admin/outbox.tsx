import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { Outbox } from '../../../features/admin-outbox/components/outbox';

export function AdminOutboxRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('outbox.title')} description={t('outbox.description')} />
      <Outbox />
    </>
  );
}

export { AdminOutboxRoute as Component };
