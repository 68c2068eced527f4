import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import type { Strategy } from '../api/get-strategies';

const STYLES = {
  active: { tone: 'success', glyph: '●' },
  paused: { tone: 'warning', glyph: '‖' },
  retired: { tone: 'neutral', glyph: '○' },
} as const;

export function StrategyStatusBadge({ status }: { status: Strategy['status'] }) {
  const { t } = useTranslation();
  const style = STYLES[status] ?? STYLES.retired;
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {t(`strategies.status.${status}`)}
    </Badge>
  );
}

/** "Public" for the admins' strategies offered to everyone, "Private" for the user's own. */
export function StrategyVisibilityBadge({ strategy }: { strategy: Pick<Strategy, 'isPublic' | 'isOwner'> }) {
  const { t } = useTranslation();
  return strategy.isPublic ? (
    <Badge tone="info" glyph="◈">
      {t('strategies.visibility.public')}
    </Badge>
  ) : (
    <Badge glyph="◆">{t('strategies.visibility.private')}</Badge>
  );
}
