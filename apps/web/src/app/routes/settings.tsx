import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { SettingsPanels } from '../../features/settings/components/settings-panels';

export function SettingsRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <SettingsPanels />
    </>
  );
}

export { SettingsRoute as Component };
