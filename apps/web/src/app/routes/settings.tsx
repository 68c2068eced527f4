import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';
import { Tabs } from '../../components/ui/tabs';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { TwoFactorSettings } from '../../features/auth/components/two-factor-settings';
import { NotificationSettings } from '../../features/settings/components/notification-settings';
import { PreferencesForm } from '../../features/settings/components/preferences-form';
import { ProfileSettings } from '../../features/settings/components/profile-settings';
import { SessionsPanel } from '../../features/settings/components/sessions-panel';
import { useSearchWriter } from '../../lib/use-search-writer';

const TABS = ['profile', 'security', 'notifications', 'preferences'] as const;
type SettingsTab = (typeof TABS)[number];

function isSettingsTab(value: string | null): value is SettingsTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/** Spec §2 Settings: profile, security, notifications, preferences (language, theme, currency). */
export function SettingsRoute() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchWriter();
  const requested = searchParams.get('tab');
  // The open tab lives in the URL (?tab=security), so a link or a reload lands on it.
  const tab: SettingsTab = isSettingsTab(requested) ? requested : 'profile';
  const content: Record<SettingsTab, ReactNode> = {
    profile: <ProfileSettings />,
    security: (
      <div className="flex flex-col gap-4">
        <TwoFactorSettings />
        <ChangePasswordForm />
        <SessionsPanel />
      </div>
    ),
    notifications: <NotificationSettings />,
    preferences: <PreferencesForm />,
  };
  return (
    <div className="max-w-4xl">
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <Tabs
        label={t('settings.title')}
        value={tab}
        onChange={(next) =>
          setSearchParams(
            (current) => {
              const params = new URLSearchParams(current);
              params.set('tab', next);
              return params;
            },
            { replace: true },
          )
        }
        items={TABS.map((id) => ({ id, label: t(`settings.tabs.${id}`), content: content[id] }))}
      />
    </div>
  );
}

export { SettingsRoute as Component };
