import { useParams } from 'react-router';
import { UserBillingDetail } from '../../../features/admin-billing/components/user-billing-detail';

export function AdminUserBillingDetailRoute() {
  const { userId = '' } = useParams();
  return <UserBillingDetail key={userId} userId={userId} />;
}

export { AdminUserBillingDetailRoute as Component };
