import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { UserBillingSummary } from '../../../features/admin-billing/components/user-billing-summary';

export function AdminUserBillingDetailRoute() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  return (
    <>
      <Link to={paths.adminBilling} className="mb-3 inline-block text-sm text-muted hover:text-fg">
        ← {t('billing.back')}
      </Link>
      <PageHeader
        title={t('billing.detail.title')}
        description={<span className="font-mono text-xs">{userId}</span>}
      />
      <UserBillingSummary userId={userId} />
    </>
  );
}

export { AdminUserBillingDetailRoute as Component };
