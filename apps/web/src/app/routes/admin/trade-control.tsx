import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { TradeControl } from '../../../features/admin-trade-control/components/trade-control';

export function AdminTradeControlRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('tradeControl.title')} description={t('tradeControl.description')} />
      <TradeControl />
    </>
  );
}

export { AdminTradeControlRoute as Component };
