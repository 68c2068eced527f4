import {
  MAX_TAKE_PROFITS,
  VALIDATION_MESSAGES,
  amountSchema,
  priceSchema,
  takeProfitSizesFit,
} from '@kairos/contract';
import { z } from 'zod';
import type { CreateTradeBody } from '../api/create-trade';
import { toDecimal } from './trade-figures';

/** Messages of our own rules are translation keys; the spec §5 sentences stay sentences. */
export const TRADE_FORM_MESSAGES = {
  distance: 'trades.form.errors.distance',
  size: 'trades.form.errors.size',
  sizes: 'trades.form.errors.sizes',
  stopLoss: 'trades.form.errors.stopLoss',
} as const;

const DECIMAL = /^(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;
const isPositive = (value: string) => DECIMAL.test(value.trim()) && Number(toDecimal(value)) > 0;

const percent = (message: string) => z.string().refine(isPositive, message);

export const tradeFormSchema = z
  .object({
    accountId: z.string().min(1, VALIDATION_MESSAGES.required),
    symbol: z.string().min(1, VALIDATION_MESSAGES.required),
    side: z.enum(['long', 'short']),
    /** Base quantity (spec §5: 'Please enter a valid amount'). */
    amount: amountSchema,
    /** Empty: a market order; otherwise a limit price (spec §5: 'Please enter a valid price'). */
    price: z
      .string()
      .refine(
        (value) => value.trim() === '' || priceSchema.safeParse(value).success,
        VALIDATION_MESSAGES.price,
      )
      .transform((value) => (value.trim() === '' ? null : priceSchema.parse(value))),
    takeProfits: z
      .array(
        z.object({
          percent: percent(TRADE_FORM_MESSAGES.distance),
          sizePercent: percent(TRADE_FORM_MESSAGES.size),
        }),
      )
      .max(MAX_TAKE_PROFITS),
    /** Empty: no stop-loss. */
    stopLossPercent: z
      .string()
      .refine(
        (value) => value.trim() === '' || (isPositive(value) && Number(toDecimal(value)) < 100),
        TRADE_FORM_MESSAGES.stopLoss,
      ),
    breakEvenAfterTp1: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (!takeProfitSizesFit(form.takeProfits)) {
      ctx.addIssue({ code: 'custom', path: ['takeProfits'], message: TRADE_FORM_MESSAGES.sizes });
    }
  });

export type TradeFormInput = z.input<typeof tradeFormSchema>;
export type TradeFormValues = z.output<typeof tradeFormSchema>;

export function emptyTradeForm(accountId = '', symbol = 'BTC/USDT'): TradeFormInput {
  return {
    accountId,
    symbol,
    side: 'long',
    amount: '',
    price: '',
    takeProfits: [],
    stopLossPercent: '',
    breakEvenAfterTp1: true,
  };
}

/** The `POST /api/trades` body: roles tp1..tpN in ladder order, decimals as strings. */
export function toCreateTradeBody(form: TradeFormValues): CreateTradeBody {
  return {
    accountId: form.accountId,
    symbol: form.symbol,
    side: form.side,
    amount: form.amount,
    ...(form.price ? { price: form.price } : {}),
    takeProfits: form.takeProfits.map((tp, index) => ({
      role: `tp${index + 1}`,
      percent: toDecimal(tp.percent),
      sizePercent: toDecimal(tp.sizePercent),
    })),
    ...(form.stopLossPercent.trim() ? { stopLossPercent: toDecimal(form.stopLossPercent) } : {}),
    breakEvenAfterTp1: form.breakEvenAfterTp1,
  };
}
