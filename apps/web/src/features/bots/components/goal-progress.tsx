import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';
import { useFormatters } from '../../../lib/use-formatters';
import type { Bot } from '@kairos/contract';
import { goalProgress } from '../utils/bot-rules';

/** This month's realised profit against the monthly goal (DESIGN §5), as a bar and in words. */
export function GoalProgress({
  bot,
  compact = false,
}: {
  bot: Pick<Bot, 'monthlyGoalPercent' | 'goalAccumulatedProfitPercent'>;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const progress = goalProgress(bot);
  if (progress === null)
    return <span className="text-xs font-normal text-subtle">{t('bots.goal.none')}</span>;
  const reached = progress >= 1;
  const label = t('bots.goal.progress', {
    reached: format.percent(bot.goalAccumulatedProfitPercent),
    goal: format.percent(bot.monthlyGoalPercent),
  });
  return (
    <div className={cn('flex flex-col gap-1', compact ? 'w-36' : 'w-full')}>
      <div
        role="progressbar"
        aria-label={t('bots.goal.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(progress * 100)}
        aria-valuetext={label}
        className={cn('overflow-hidden rounded-full bg-surface-3', compact ? 'h-1.5' : 'h-2')}
      >
        <div
          className={cn('h-full rounded-full transition-[width]', reached ? 'bg-gain' : 'bg-accent')}
          style={{ width: `${progress * 100}%` }}
        />
      </div>
      <span className={cn('num font-normal text-muted', compact ? 'text-[11px]' : 'text-xs')}>
        {label}
        {reached ? <span className="ml-1 text-gain">✓ {t('bots.goal.reached')}</span> : null}
      </span>
    </div>
  );
}
