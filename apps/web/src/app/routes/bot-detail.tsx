import { useParams } from 'react-router';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { BotDetail } from '../../features/bots/components/bot-detail';

export function BotDetailRoute() {
  const { id = '' } = useParams();
  // Composed here: the bots feature learns an account's market type without importing accounts.
  const accounts = useTradingAccounts();
  return (
    <BotDetail
      botId={id}
      marketTypeOf={(accountId) => accounts.data?.find((account) => account.id === accountId)?.marketType}
    />
  );
}

export { BotDetailRoute as Component };
