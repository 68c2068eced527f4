import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, CardBody } from '../../../components/ui/card';
import { Badge } from '../../../components/ui/status-badge';
import { QueryView } from '../../../components/ui/states';
import { SkeletonText } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { field, flag } from '../../../lib/fields';
import { DEFAULT_PREFERENCES, type NotificationPreferences, useSession } from '../../../lib/session-store';
import { useFormatters } from '../../../lib/use-formatters';
import { useUserSettings } from '../api/get-user-settings';
import { PreferencesForm } from './preferences-form';

function Facts({ items }: { items: Array<[ReactNode, ReactNode]> }) {
  return (
    <dl className="grid max-w-xl grid-cols-[10rem_1fr] gap-x-4 gap-y-2.5 text-sm">
      {items.map(([label, value], index) => (
        <div key={index} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function OnOff({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return on ? (
    <Badge tone="success" glyph="✓">
      {t('common.on')}
    </Badge>
  ) : (
    <Badge glyph="–">{t('common.off')}</Badge>
  );
}

const NOTIFICATION_KEYS = Object.keys(DEFAULT_PREFERENCES.notifications) as Array<
  keyof NotificationPreferences
>;

function NotificationsPanel() {
  const { t } = useTranslation();
  const settings = useUserSettings();
  const stored =
    useSession((state) => state.user?.preferences.notifications) ?? DEFAULT_PREFERENCES.notifications;
  return (
    <QueryView query={settings} loading={<SkeletonText lines={6} className="max-w-xl" />}>
      {(data) => {
        const fromServer = field(data, 'notifications');
        return (
          <Facts
            items={NOTIFICATION_KEYS.map((key) => [
              t(`settings.notifications.${key}`),
              <OnOff key={key} on={flag(fromServer, key) ?? stored[key]} />,
            ])}
          />
        );
      }}
    </QueryView>
  );
}

export function SettingsPanels() {
  const { t } = useTranslation();
  const format = useFormatters();
  const user = useSession((state) => state.user);
  return (
    <Card>
      <CardBody>
        <Tabs
          label={t('settings.title')}
          items={[
            {
              id: 'profile',
              label: t('settings.tabs.profile'),
              content: (
                <Facts
                  items={[
                    [t('auth.email'), user?.email ?? '—'],
                    [t('settings.username'), user?.username ?? '—'],
                    [
                      t('settings.role'),
                      user?.role === 'admin' ? t('userMenu.roleAdmin') : t('userMenu.roleUser'),
                    ],
                    [t('settings.memberSince'), format.dateTime(user?.createdAt)],
                  ]}
                />
              ),
            },
            {
              id: 'security',
              label: t('settings.tabs.security'),
              content: (
                <Facts
                  items={[[t('settings.twoFactor'), <OnOff key="2fa" on={user?.useTwoFa ?? false} />]]}
                />
              ),
            },
            { id: 'notifications', label: t('settings.tabs.notifications'), content: <NotificationsPanel /> },
            { id: 'preferences', label: t('settings.tabs.preferences'), content: <PreferencesForm /> },
          ]}
        />
      </CardBody>
    </Card>
  );
}
