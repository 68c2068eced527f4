import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { PlusIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { Tabs } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { useTradingAccounts } from '../../features/accounts/api/get-trading-accounts';
import { BotWizardDialog } from '../../features/bots/components/bot-wizard-dialog';
import { BotsEmptyState, BotsList } from '../../features/bots/components/bots-list';
import { useStrategies } from '../../features/strategies/api/get-strategies';
import { StrategiesPanel } from '../../features/strategies/components/strategies-panel';

type Tab = 'bots' | 'strategies';

/** Bots and the strategies they follow, side by side; the wizard gets accounts and strategies from here. */
export function BotsRoute() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab: Tab = search.get('tab') === 'strategies' ? 'strategies' : 'bots';
  const [creating, setCreating] = useState(false);
  const accounts = useTradingAccounts();
  const strategies = useStrategies();

  const selectTab = (next: string) =>
    setSearch(next === 'strategies' ? { tab: next } : {}, { replace: true });

  const newBot = (
    <Button onClick={() => setCreating(true)} icon={<PlusIcon />}>
      {t('bots.wizard.open')}
    </Button>
  );
  const noAccount = accounts.data?.length === 0;

  return (
    <>
      <PageHeader title={t('bots.title')} description={t('bots.description')} />
      <Tabs
        label={t('bots.tabs.label')}
        value={tab}
        onChange={selectTab}
        items={[
          {
            id: 'bots',
            label: t('bots.tabs.bots'),
            content: (
              <BotsList
                toolbar={newBot}
                empty={
                  <BotsEmptyState
                    actions={
                      noAccount ? (
                        <Link to={paths.accounts} className={buttonClasses()}>
                          {t('dashboard.empty.connectAccount')}
                        </Link>
                      ) : (
                        <Button onClick={() => setCreating(true)} icon={<PlusIcon />}>
                          {t('dashboard.empty.createBot')}
                        </Button>
                      )
                    }
                  />
                }
              />
            ),
          },
          { id: 'strategies', label: t('bots.tabs.strategies'), content: <StrategiesPanel /> },
        ]}
      />
      {creating ? (
        <BotWizardDialog
          accounts={accounts.data}
          strategies={strategies.data}
          loading={accounts.isPending || strategies.isPending}
          loadError={accounts.error ?? strategies.error ?? undefined}
          onRetry={() => {
            void accounts.refetch();
            void strategies.refetch();
          }}
          onClose={() => setCreating(false)}
          onCreateStrategy={() => {
            setCreating(false);
            selectTab('strategies');
          }}
        />
      ) : null}
    </>
  );
}

export { BotsRoute as Component };
