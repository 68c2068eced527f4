import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { SkeletonText } from '../../../components/ui/skeleton';
import { QueryView } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import { useFormatters } from '../../../lib/use-formatters';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { type SessionInfo, useRevokeSession, useSessions } from '../api/sessions';

function SessionRow({ session }: { session: SessionInfo }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const revoke = useRevokeSession();
  // One revoke for a double click: the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const device = session.userAgent?.trim() || t('settings.sessions.unknownDevice');
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3" aria-label={device}>
      <div className="min-w-0 flex-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 break-words font-medium text-fg">
          <span className="min-w-0 break-words">{device}</span>
          {session.current ? (
            <span className="rounded-full bg-accent/10 px-2 py-0.5 text-xs text-accent">
              {t('settings.sessions.thisDevice')}
            </span>
          ) : null}
        </p>
        <p className="text-muted">
          {[
            session.ip ? t('settings.sessions.address', { ip: session.ip }) : null,
            t('settings.sessions.signedIn', { date: format.dateTime(session.createdAt) }),
            session.lastUsedAt
              ? t('settings.sessions.lastActive', { date: format.dateTime(session.lastUsedAt) })
              : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </div>
      {session.current ? null : (
        <Button
          variant="secondary"
          size="sm"
          loading={revoke.isPending}
          aria-label={t('settings.sessions.revokeDevice', { device })}
          onClick={() =>
            void singleFlight(() =>
              revoke.mutateAsync(session.id).then(
                () => toast.success(t('settings.sessions.revoked')),
                (error: unknown) => toast.error(errorMessage(t, error)),
              ),
            )
          }
        >
          {t('settings.sessions.revoke')}
        </Button>
      )}
    </li>
  );
}

/** Settings › Security: where the account is signed in, and a way to sign other devices out. */
export function SessionsPanel() {
  const { t } = useTranslation();
  const sessions = useSessions();
  return (
    <Card>
      <CardHeader title={t('settings.sessions.title')} description={t('settings.sessions.description')} />
      <CardBody>
        <QueryView query={sessions} loading={<SkeletonText lines={3} />}>
          {(list) => (
            <ul className="divide-y divide-line" aria-label={t('settings.sessions.title')}>
              {list.map((session) => (
                <SessionRow key={session.id} session={session} />
              ))}
            </ul>
          )}
        </QueryView>
      </CardBody>
    </Card>
  );
}
