import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { useBots } from '../../features/bots/api/get-bots';
import { DashboardOverview } from '../../features/dashboard/components/dashboard-overview';
import { useDeferredAnswer } from '../../lib/use-deferred-answer';

export function DashboardRoute() {
  const { t } = useTranslation();
  // Composed here: the dashboard's account and bot filters without the dashboard importing those features.
  const accounts = useDeferredAnswer(useTradingAccounts());
  const bots = useDeferredAnswer(useBots());
  // The same lists while the answers stand, so a refetch or another query's update does not render the whole
  // dashboard again (issue 21: each of the first load's answers re-rendered it, a long task on a phone).
  const accountRows = useMemo(
    () =>
      (accounts.data ?? []).map((account) => ({
        id: account.id,
        nickname: account.nickname,
        sandbox: account.sandbox,
      })),
    [accounts.data],
  );
  const botRows = useMemo(
    () =>
      (bots.data ?? []).map((bot) => ({
        id: bot.id,
        nickname: bot.nickname,
        accountId: bot.tradingAccount.id,
      })),
    [bots.data],
  );
  return (
    <>
      <PageHeader title={t('dashboard.title')} description={t('dashboard.description')} />
      <DashboardOverview accounts={accountRows} bots={botRows} />
    </>
  );
}

export { DashboardRoute as Component };
