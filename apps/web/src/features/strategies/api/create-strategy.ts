import {
  CURRENCY_CODE_PATTERN,
  decimalText,
  MAX_TAKE_PROFITS,
  STRATEGY_KEY_PATTERN,
  strategySchema,
  strategyStatusSchema,
  takeProfitSizesFit,
  timeFrameSchema,
  VALIDATION_MESSAGES,
} from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { type Strategy, strategiesQueryOptions } from './get-strategies';

export const TIME_FRAMES = timeFrameSchema.options;
export const STRATEGY_STATUSES = strategyStatusSchema.options;

/**
 * The rules of the server's contract (packages/contract/src/trading.ts) checked before sending.
 * Their messages are translation keys; the spec §5 sentences stay sentences.
 */
export const STRATEGY_MESSAGES = {
  key: 'strategies.errors.key',
  currency: 'strategies.errors.currency',
  takeProfitSizes: 'strategies.errors.takeProfitSizes',
  maxLag: 'strategies.errors.maxLag',
  stopLimitOffset: 'strategies.errors.stopLimitOffset',
} as const;

/** The spot stop-limit's limit offset, as the contract bounds it (percent). */
export const STOP_LIMIT_OFFSET = { min: 0.05, max: 10, default: '0.5' } as const;

const decimal = /^(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;
const toDecimal = decimalText;

/** A strictly positive decimal typed by a person ("1.5", "1,5"). */
const positivePercent = z
  .string()
  .trim()
  .min(1, VALIDATION_MESSAGES.required)
  .refine((value) => decimal.test(value) && Number(toDecimal(value)) > 0, VALIDATION_MESSAGES.amount);

const currencyCode = z
  .string()
  .trim()
  .min(1, VALIDATION_MESSAGES.required)
  .regex(CURRENCY_CODE_PATTERN, STRATEGY_MESSAGES.currency);

export const strategyFormSchema = z
  .object({
    nickname: z.string().trim().min(1, VALIDATION_MESSAGES.required).max(80),
    /** Empty: the server derives one from the name. */
    strategyKey: z
      .string()
      .trim()
      .refine((key) => key === '' || STRATEGY_KEY_PATTERN.test(key), STRATEGY_MESSAGES.key),
    tradeCurrency: currencyCode,
    stableCoin: currencyCode,
    timeFrame: timeFrameSchema,
    status: strategyStatusSchema,
    takeProfits: z
      .array(z.object({ percent: positivePercent, sizePercent: positivePercent }))
      .max(MAX_TAKE_PROFITS),
    /** Empty: no stop-loss. */
    stopLossPercent: z
      .string()
      .trim()
      .refine(
        (value) => value === '' || (decimal.test(value) && Number(toDecimal(value)) > 0),
        VALIDATION_MESSAGES.amount,
      ),
    breakEvenAfterTp1: z.boolean(),
    maxLagSeconds: z
      .string()
      .trim()
      .refine((value) => /^\d+$/.test(value) && Number(value) >= 5 && Number(value) <= 86_400, {
        message: STRATEGY_MESSAGES.maxLag,
      }),
    /** How far past a spot stop its limit order works (percent). */
    stopLimitOffsetPercent: z
      .string()
      .trim()
      .refine((value) => {
        const percent = Number(toDecimal(value));
        return decimal.test(value) && percent >= STOP_LIMIT_OFFSET.min && percent <= STOP_LIMIT_OFFSET.max;
      }, STRATEGY_MESSAGES.stopLimitOffset),
  })
  .superRefine((form, ctx) => {
    if (!takeProfitSizesFit(form.takeProfits)) {
      ctx.addIssue({ code: 'custom', path: ['takeProfits'], message: STRATEGY_MESSAGES.takeProfitSizes });
    }
  });

export type StrategyForm = z.infer<typeof strategyFormSchema>;

export const emptyStrategyForm: StrategyForm = {
  nickname: '',
  strategyKey: '',
  tradeCurrency: 'BTC',
  stableCoin: 'USDT',
  timeFrame: '1h',
  status: 'active',
  takeProfits: [
    { percent: '1.5', sizePercent: '50' },
    { percent: '3', sizePercent: '50' },
  ],
  stopLossPercent: '2',
  breakEvenAfterTp1: true,
  maxLagSeconds: '300',
  stopLimitOffsetPercent: STOP_LIMIT_OFFSET.default,
};

/** "1.500000000000000000" (a database numeric) → "1.5". */
const trimDecimal = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

export function strategyToForm(strategy: Strategy): StrategyForm {
  return {
    nickname: strategy.nickname,
    strategyKey: strategy.strategyKey,
    tradeCurrency: strategy.tradeCurrency,
    stableCoin: strategy.stableCoin,
    timeFrame: (TIME_FRAMES as readonly string[]).includes(strategy.timeFrame)
      ? (strategy.timeFrame as StrategyForm['timeFrame'])
      : '1h',
    status: strategy.status,
    takeProfits: strategy.takeProfits.map((tp) => ({
      percent: trimDecimal(tp.percent),
      sizePercent: trimDecimal(tp.sizePercent),
    })),
    stopLossPercent: strategy.stopLossPercent ? trimDecimal(strategy.stopLossPercent) : '',
    breakEvenAfterTp1: strategy.breakEvenAfterTp1,
    maxLagSeconds: String(strategy.maxLagSeconds),
    stopLimitOffsetPercent: String(strategy.stopLimitOffsetPercent ?? STOP_LIMIT_OFFSET.default),
  };
}

/** The POST/PUT body: roles tp1..tpN in ladder order, decimals as strings, no float on the way. */
export function toStrategyBody(form: StrategyForm) {
  return {
    nickname: form.nickname.trim(),
    ...(form.strategyKey.trim() ? { strategyKey: form.strategyKey.trim() } : {}),
    tradeCurrency: form.tradeCurrency.trim().toUpperCase(),
    stableCoin: form.stableCoin.trim().toUpperCase(),
    timeFrame: form.timeFrame,
    status: form.status,
    takeProfits: form.takeProfits.map((tp, index) => ({
      role: `tp${index + 1}`,
      percent: toDecimal(tp.percent),
      sizePercent: toDecimal(tp.sizePercent),
    })),
    stopLossPercent: form.stopLossPercent.trim() ? toDecimal(form.stopLossPercent) : null,
    breakEvenAfterTp1: form.breakEvenAfterTp1,
    maxLagSeconds: Number(form.maxLagSeconds),
    stopLimitOffsetPercent: Number(toDecimal(form.stopLimitOffsetPercent)),
  };
}

export type StrategyBody = ReturnType<typeof toStrategyBody>;

export async function createStrategy(body: StrategyBody): Promise<Strategy> {
  return parseResults(strategySchema, await api.post<unknown>('/api/strategies', body));
}

export function useCreateStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStrategy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }),
  });
}
