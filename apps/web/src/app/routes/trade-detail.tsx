import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PAPER_VENUE_ID, useExchanges } from '../../features/accounts/api/get-exchanges';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { useBots } from '../../features/bots/api/get-bots';
import { TradeDetail } from '../../features/trades/components/trade-detail';

export function TradeDetailRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  // Composed here: the trades feature learns account, venue and bot names (and which accounts are testnets)
  // without importing those features.
  const accounts = useTradingAccounts();
  const venues = useExchanges();
  const bots = useBots();
  const venueName = (accountId: string) => {
    const exchange = accounts.data?.find((account) => account.id === accountId)?.exchange;
    if (!exchange) return undefined;
    if (exchange === PAPER_VENUE_ID) return t('accounts.paper');
    return venues.data?.find((venue) => venue.id === exchange)?.name ?? exchange;
  };
  return (
    <TradeDetail
      tradeId={id}
      accountName={(accountId) => accounts.data?.find((account) => account.id === accountId)?.nickname}
      venueName={venueName}
      isTestnetAccount={(accountId) =>
        accounts.data?.find((account) => account.id === accountId)?.sandbox ?? false
      }
      botName={(botId) => bots.data?.find((bot) => bot.id === botId)?.nickname}
    />
  );
}

export { TradeDetailRoute as Component };
