import type { TradeProtection } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import { useFormatters } from '../../../lib/use-formatters';

/** A long sentence in a badge wraps in a narrow card (a 390 px phone in French) instead of leaving it. */
const WRAPPING = 'h-auto! min-h-5 max-w-full py-0.5 leading-tight! whitespace-normal!';

/**
 * Where an open trade's stop lives (issue 18): resting on the venue ("Stop on Binance · order 12345"), watched
 * by Kairos's price watch, or nowhere (a danger badge). Nothing for a trade with nothing to protect.
 */
export function StopProtection({
  protection,
  venueName,
}: {
  protection: TradeProtection | null;
  /** The exchange's display name ("Binance", "Paper"); "the exchange" when not known yet. */
  venueName?: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (!protection) return null;
  const venue = venueName ?? t('trades.protection.theVenue');

  if (protection.where === 'venue') {
    return (
      <p className="flex flex-wrap items-center gap-1.5" data-testid="stop-protection">
        <Badge
          tone="success"
          glyph="✓"
          className={WRAPPING}
          title={t('trades.protection.venueHint', {
            venue,
            time: format.dateTime(protection.since),
          })}
        >
          {t('trades.protection.venue', { venue })}
        </Badge>
        {protection.venueOrderId ? (
          <>
            <span aria-hidden="true" className="text-subtle">
              ·
            </span>
            <span className="num text-subtle">
              {t('trades.protection.order', { orderId: protection.venueOrderId })}
            </span>
          </>
        ) : null}
      </p>
    );
  }
  if (protection.where === 'kairos') {
    return (
      <p className="flex flex-wrap items-center gap-1.5" data-testid="stop-protection">
        <Badge
          tone={protection.venueRefused ? 'warning' : 'info'}
          glyph="◉"
          className={WRAPPING}
          title={t('trades.protection.kairosHint')}
        >
          {t('trades.protection.kairos')}
        </Badge>
        {protection.venueRefused ? (
          <span className="text-warn">{t('trades.protection.refused', { venue })}</span>
        ) : null}
      </p>
    );
  }
  return (
    <p className="flex flex-wrap items-center gap-1.5" data-testid="stop-protection">
      <Badge tone="danger" glyph="!" title={t('trades.protection.noneHint')}>
        {t('trades.protection.none')}
      </Badge>
      <span className="text-loss">{t('trades.protection.noneHint')}</span>
    </p>
  );
}
