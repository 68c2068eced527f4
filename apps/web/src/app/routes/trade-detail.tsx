import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { TradeSummary } from '../../features/trades/components/trade-summary';

export function TradeDetailRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <>
      <button
        type="button"
        onClick={() => void navigate(-1)}
        className="mb-3 text-sm text-muted hover:text-fg"
      >
        ← {t('common.back')}
      </button>
      <PageHeader title={t('trades.detail.title', { id })} description={t('trades.detail.description')} />
      <TradeSummary tradeId={id} />
    </>
  );
}

export { TradeDetailRoute as Component };
