import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { MyBillingView } from '../../features/billing/components/my-billing';

/** The user's own billing (issue 21): plan, months billed, fees and invoices. */
export function BillingRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('myBilling.title')} description={t('myBilling.description')} />
      <MyBillingView />
    </>
  );
}

export { BillingRoute as Component };
