import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { MarketPairs } from '../../features/market/components/market-pairs';

export function TradingRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('trading.title')} description={t('trading.description')} />
      <MarketPairs />
    </>
  );
}

export { TradingRoute as Component };
