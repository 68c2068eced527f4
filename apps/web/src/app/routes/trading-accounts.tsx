import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { PlusIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { ConnectAccountDialog } from '../../features/accounts/components/connect-account-dialog';
import { TradingAccountsList } from '../../features/accounts/components/trading-accounts-list';

export function TradingAccountsRoute() {
  const { t } = useTranslation();
  const [connecting, setConnecting] = useState(false);
  return (
    <>
      <PageHeader
        title={t('accounts.title')}
        description={t('accounts.description')}
        actions={
          <Button onClick={() => setConnecting(true)} icon={<PlusIcon />}>
            {t('accounts.connect.open')}
          </Button>
        }
      />
      <TradingAccountsList onConnect={() => setConnecting(true)} />
      {connecting ? <ConnectAccountDialog open onClose={() => setConnecting(false)} /> : null}
    </>
  );
}

export { TradingAccountsRoute as Component };
