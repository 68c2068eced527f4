import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { BotsList } from '../../features/bots/components/bots-list';

export function BotsRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('bots.title')} description={t('bots.description')} />
      <BotsList />
    </>
  );
}

export { BotsRoute as Component };
