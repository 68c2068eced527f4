import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { useLiveStatus } from '../../lib/use-live-events';

/** A dot in the header: screens update by themselves while it is green. */
export function LiveStatusIndicator({ className }: { className?: string }) {
  const { t } = useTranslation();
  const status = useLiveStatus((state) => state.status);
  if (status === 'off') return null;
  const label =
    status === 'live'
      ? t('live.on')
      : status === 'connecting'
        ? t('live.connecting')
        : t('live.reconnecting');
  return (
    <span
      role="status"
      data-testid="live-status"
      data-status={status}
      title={status === 'live' ? t('live.onHint') : t('live.offHint')}
      className={cn('inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-xs text-muted', className)}
    >
      <span
        aria-hidden="true"
        className={cn(
          'h-2 w-2 rounded-full',
          status === 'live' ? 'bg-gain' : status === 'reconnecting' ? 'animate-pulse bg-warn' : 'bg-subtle',
        )}
      />
      <span className="max-sm:sr-only">{label}</span>
    </span>
  );
}
