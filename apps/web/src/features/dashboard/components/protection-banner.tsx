import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/cn';
import type { Dashboard } from '../api/get-dashboard';

/**
 * A warning over every open trade of the user, whatever the filters (issue 18): positions held with no stop
 * (nothing protects them), and those whose stop the exchange refused (Kairos's price watch alone protects them),
 * with a link to the open trades.
 */
export function ProtectionBanner({ protection }: { protection: Dashboard['protection'] }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { unprotected, venueStopRefused } = protection;
  if (unprotected === 0 && venueStopRefused === 0) return null;
  const danger = unprotected > 0;
  return (
    <div
      role="alert"
      aria-labelledby={titleId}
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3',
        danger ? 'border-loss/40 bg-loss/10' : 'border-warn/40 bg-warn/10',
      )}
    >
      <div className="flex min-w-0 items-start gap-3">
        <span className={cn('mt-0.5', danger ? 'text-loss' : 'text-warn')}>
          <AlertIcon size={18} />
        </span>
        <div>
          <p id={titleId} className="text-sm font-medium text-fg">
            {t(danger ? 'dashboard.protection.title' : 'dashboard.protection.refusedTitle')}
          </p>
          {unprotected > 0 ? (
            <p className="text-sm text-muted">
              {t('dashboard.protection.unprotected', { count: unprotected })}
            </p>
          ) : null}
          {venueStopRefused > 0 ? (
            <p className="text-sm text-muted">
              {t('dashboard.protection.venueStopRefused', { count: venueStopRefused })}
            </p>
          ) : null}
        </div>
      </div>
      <Link to={paths.openTrades} className="text-sm font-medium text-fg hover:text-accent">
        {t('dashboard.protection.seeOpenTrades')} →
      </Link>
    </div>
  );
}
