import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import { normalizePosition } from '../api/bot-model';

export function PositionBadge({ position }: { position: unknown }) {
  const { t } = useTranslation();
  const value = normalizePosition(position);
  if (value === 'long')
    return (
      <Badge tone="success" glyph="▲">
        {t('position.long')}
      </Badge>
    );
  if (value === 'short')
    return (
      <Badge tone="danger" glyph="▼">
        {t('position.short')}
      </Badge>
    );
  return <Badge glyph="–">{t('position.out')}</Badge>;
}

export function ActiveBadge({ active }: { active: boolean | undefined }) {
  const { t } = useTranslation();
  return active ? (
    <Badge tone="success" glyph="●">
      {t('bots.active')}
    </Badge>
  ) : (
    <Badge glyph="○">{t('bots.paused')}</Badge>
  );
}
