import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { TradingAccountsList } from '../../features/trading-accounts/components/trading-accounts-list';

export function TradingAccountsRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('accounts.title')} description={t('accounts.description')} />
      <TradingAccountsList />
    </>
  );
}

export { TradingAccountsRoute as Component };
