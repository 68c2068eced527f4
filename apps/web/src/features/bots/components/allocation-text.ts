import { useFormatters } from '../../../lib/use-formatters';
import type { Bot } from '@kairos/contract';

/** Allocation in words: a share of the account or a fixed amount, with the leverage when above 1×. */
/** "2×", "1.5×": a multiplier without the trailing ",00" of the 2-decimal format. */
export function useLeverageText() {
  const format = useFormatters();
  return (leveragePercent: string | number) =>
    `${format.decimal(Number(leveragePercent) / 100).replace(/[.,]00$/, '')}×`;
}

export function useAllocationText() {
  const format = useFormatters();
  const leverageText = useLeverageText();
  return (bot: Pick<Bot, 'fixedAmount' | 'portfolioPercent' | 'leveragePercent' | 'stableCoin'>) => {
    const size =
      bot.fixedAmount && Number(bot.fixedAmount) > 0
        ? `${format.decimal(bot.fixedAmount)} ${bot.stableCoin || 'USDT'}`
        : format.percent(bot.portfolioPercent);
    return Number(bot.leveragePercent) > 100 ? `${size} · ${leverageText(bot.leveragePercent)}` : size;
  };
}
