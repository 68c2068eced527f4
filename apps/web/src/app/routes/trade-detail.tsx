import { useParams } from 'react-router';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { useBots } from '../../features/bots/api/get-bots';
import { TradeDetail } from '../../features/trades/components/trade-detail';

export function TradeDetailRoute() {
  const { id = '' } = useParams();
  // Composed here: the trades feature learns account and bot names without importing those features.
  const accounts = useTradingAccounts();
  const bots = useBots();
  return (
    <TradeDetail
      tradeId={id}
      accountName={(accountId) => accounts.data?.find((account) => account.id === accountId)?.nickname}
      botName={(botId) => bots.data?.find((bot) => bot.id === botId)?.nickname}
    />
  );
}

export { TradeDetailRoute as Component };
