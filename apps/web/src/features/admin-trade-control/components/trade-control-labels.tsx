import type { AdminStrategy, BotActionOutcome } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Badge, type Tone } from '../../../components/ui/status-badge';

const STRATEGY_STATUS_STYLES: Record<AdminStrategy['status'], { tone: Tone; glyph: string }> = {
  active: { tone: 'success', glyph: '●' },
  paused: { tone: 'warning', glyph: '‖' },
  retired: { tone: 'neutral', glyph: '⊘' },
};

export function StrategyStatusBadge({ status }: { status: AdminStrategy['status'] }) {
  const { t } = useTranslation();
  const style = STRATEGY_STATUS_STYLES[status];
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {t(`tradeControl.strategyStatuses.${status}`)}
    </Badge>
  );
}

const OUTCOME_STYLES: Record<BotActionOutcome['status'], { tone: Tone; glyph: string }> = {
  done: { tone: 'success', glyph: '✓' },
  skipped: { tone: 'neutral', glyph: '–' },
  failed: { tone: 'danger', glyph: '!' },
};

/** What an action did to one bot. */
export function BotOutcomeBadge({ status }: { status: BotActionOutcome['status'] }) {
  const { t } = useTranslation();
  const style = OUTCOME_STYLES[status];
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {t(`tradeControl.outcome.${status}`)}
    </Badge>
  );
}
