import type { BotPosition } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';

export function PositionBadge({ position }: { position: BotPosition }) {
  const { t } = useTranslation();
  if (position === 'long')
    return (
      <Badge tone="success" glyph="▲">
        {t('position.long')}
      </Badge>
    );
  if (position === 'short')
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
