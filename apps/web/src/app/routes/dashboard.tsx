import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { useBots } from '../../features/bots/api/get-bots';
import { DashboardOverview } from '../../features/dashboard/components/dashboard-overview';

export function DashboardRoute() {
  const { t } = useTranslation();
  // Composed here: the dashboard's account and bot filters without the dashboard importing those features.
  const accounts = useTradingAccounts();
  const bots = useBots();
  return (
    <>
      <PageHeader title={t('dashboard.title')} description={t('dashboard.description')} />
      <DashboardOverview
        accounts={(accounts.data ?? []).map((account) => ({
          id: account.id,
          nickname: account.nickname,
          sandbox: account.sandbox,
        }))}
        bots={(bots.data ?? []).map((bot) => ({
          id: bot.id,
          nickname: bot.nickname,
          accountId: bot.tradingAccount.id,
        }))}
      />
    </>
  );
}

export { DashboardRoute as Component };
