import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { useBots } from '../../features/bots/api/get-bots';
import { TradesList } from '../../features/trades/components/trades-list';
import { TradesViews } from '../../features/trades/components/trades-views';

/** Every trade of the user, bot and manual (issue 21). */
export function TradesRoute() {
  const { t } = useTranslation();
  // Composed here: the trades feature learns the bots' and accounts' names without importing those features.
  const bots = useBots();
  const accounts = useTradingAccounts();
  return (
    <>
      <PageHeader title={t('tradeList.title')} description={t('tradeList.description')} />
      <TradesViews />
      <TradesList
        bots={(bots.data ?? []).map((bot) => ({ id: bot.id, name: bot.nickname }))}
        accounts={(accounts.data ?? []).map((account) => ({ id: account.id, name: account.nickname }))}
      />
    </>
  );
}

export { TradesRoute as Component };
