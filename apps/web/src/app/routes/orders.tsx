import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { OrdersList } from '../../features/trades/components/orders-list';
import { TradesViews } from '../../features/trades/components/trades-views';

/** The user's orders, beside their trades (issue 21): a pending order read as an order. */
export function OrdersRoute() {
  const { t } = useTranslation();
  const accounts = useTradingAccounts();
  return (
    <>
      <PageHeader title={t('orderList.title')} description={t('orderList.description')} />
      <TradesViews />
      <OrdersList
        accounts={(accounts.data ?? []).map((account) => ({ id: account.id, name: account.nickname }))}
      />
    </>
  );
}

export { OrdersRoute as Component };
