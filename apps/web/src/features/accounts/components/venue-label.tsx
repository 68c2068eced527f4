import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { PAPER_VENUE_ID } from '../api/get-exchanges';
import type { TradingAccount } from '../api/get-trading-accounts';

/** "Paper" or the exchange's name, with the market type and a Testnet mark. */
export function VenueLabel({
  account,
  venueName,
}: {
  account: Pick<TradingAccount, 'exchange' | 'marketType' | 'sandbox'>;
  venueName?: string;
}) {
  const { t } = useTranslation();
  const paper = account.exchange === PAPER_VENUE_ID;
  return (
    <span className="inline-flex items-center gap-1.5">
      {paper ? (
        <Badge tone="info" glyph="◇">
          {t('accounts.paper')}
        </Badge>
      ) : (
        <span className="font-medium">{venueName ?? account.exchange}</span>
      )}
      <Badge>{t(`accounts.marketType.${account.marketType}`)}</Badge>
      {account.sandbox ? <TestnetBadge /> : null}
    </span>
  );
}

export function AccountStatusBadge({ status }: { status: TradingAccount['status'] }) {
  const { t } = useTranslation();
  return status === 'error' ? (
    <Badge tone="danger" glyph="!">
      {t('accounts.status.error')}
    </Badge>
  ) : (
    <Badge tone="success" glyph="●">
      {t('accounts.status.active')}
    </Badge>
  );
}
