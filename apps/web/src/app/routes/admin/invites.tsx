import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { Invites } from '../../../features/admin-invites/components/invites';

export function AdminInvitesRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('invites.title')} description={t('invites.description')} />
      <Invites />
    </>
  );
}

export { AdminInvitesRoute as Component };
