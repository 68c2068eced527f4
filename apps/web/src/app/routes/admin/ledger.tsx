import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { LedgerAdjustments } from '../../../features/admin-ledger/components/ledger-adjustments';

export function AdminLedgerRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('ledger.title')} description={t('ledger.description')} />
      <LedgerAdjustments />
    </>
  );
}

export { AdminLedgerRoute as Component };
