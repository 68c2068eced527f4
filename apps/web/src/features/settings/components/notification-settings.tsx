import type { Preferences } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { CheckIcon } from '../../../components/ui/icons';
import { SkeletonText } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { QueryView } from '../../../components/ui/states';
import { Toggle } from '../../../components/ui/toggle';
import { useUserSettings } from '../api/get-user-settings';
import { useUpdateUserSettings } from '../api/update-user-settings';

type NotificationKey = keyof Preferences['notifications'];

/**
 * Only what Kairos delivers (issue 21): the app itself, always on, and mail; about trading. Push, SMS, price and
 * news alerts have no sender, so they are not offered (their stored preferences are kept for when one exists).
 */
const GROUPS: Array<{ title: 'channels' | 'topics'; keys: NotificationKey[] }> = [
  { title: 'channels', keys: ['email'] },
  { title: 'topics', keys: ['tradingAlerts'] },
];

/** Settings › Notifications: each switch is saved when flipped. */
export function NotificationSettings() {
  const { t } = useTranslation();
  const settings = useUserSettings();
  const update = useUpdateUserSettings();
  return (
    <Card>
      <CardHeader
        title={t('settings.tabs.notifications')}
        description={t('settings.notificationsPanel.description')}
        actions={
          update.isPending ? (
            <Spinner size={14} label={t('common.loading')} />
          ) : update.isSuccess ? (
            <span role="status" className="flex items-center gap-1 text-xs text-gain">
              <CheckIcon size={14} />
              {t('settings.notificationsPanel.saved')}
            </span>
          ) : null
        }
      />
      <CardBody>
        <QueryView query={settings} loading={<SkeletonText lines={6} className="max-w-md" />}>
          {(data) => (
            <div className="flex max-w-lg flex-col gap-6">
              {GROUPS.map((group) => (
                <fieldset key={group.title} className="flex flex-col gap-3.5">
                  <legend className="mb-3 text-xs font-medium tracking-wide text-subtle uppercase">
                    {t(`settings.notificationsPanel.${group.title}`)}
                  </legend>
                  {group.title === 'channels' ? (
                    <div className="flex items-center justify-between gap-3">
                      <div className="flex flex-col">
                        <span className="text-sm text-fg">{t('settings.notifications.inApp')}</span>
                        <span className="text-xs text-subtle">
                          {t('settings.notificationsPanel.hints.inApp')}
                        </span>
                      </div>
                      <span className="text-xs text-muted">{t('settings.notificationsPanel.alwaysOn')}</span>
                    </div>
                  ) : null}
                  {group.keys.map((key) => (
                    <Toggle
                      key={key}
                      label={t(`settings.notifications.${key}`)}
                      description={t(`settings.notificationsPanel.hints.${key}`)}
                      checked={data.notifications[key]}
                      onChange={(checked) => update.mutate({ notifications: { [key]: checked } })}
                    />
                  ))}
                </fieldset>
              ))}
              {update.isError ? <FormError title={t('settings.saveFailed')} error={update.error} /> : null}
            </div>
          )}
        </QueryView>
      </CardBody>
    </Card>
  );
}
