import { useFormatters } from '../../../lib/use-formatters';
import type { Bot } from '../api/bot-model';

/** Allocation in words: a share of the account or a fixed amount, with the leverage when above 1×. */
export function useAllocationText() {
  const format = useFormatters();
  return (bot: Pick<Bot, 'fixedAmount' | 'portfolioPercent' | 'leveragePercent' | 'stableCoin'>) => {
    const size =
      bot.fixedAmount && Number(bot.fixedAmount) > 0
        ? `${format.decimal(bot.fixedAmount)} ${bot.stableCoin || 'USDT'}`
        : format.percent(bot.portfolioPercent);
    const leverage = Number(bot.leveragePercent) / 100;
    return leverage > 1 ? `${size} · ×${format.decimal(leverage).replace(/[.,]00$/, '')}` : size;
  };
}
