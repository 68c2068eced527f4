import { VALIDATION_MESSAGES, paperBalanceSchema, tradingAccountSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { PAPER_VENUE_ID } from './get-exchanges';
import { type TradingAccount, tradingAccountsQueryOptions } from './get-trading-accounts';

/** DESIGN §4: a paper account starts with 10,000 USDT unless told otherwise. */
export const DEFAULT_PAPER_BALANCE = '10000';

/**
 * The "connect" form as typed (strings and switches). Paper needs no keys; a real venue needs
 * key and secret, and a passphrase where the venue asks for one.
 */
export const connectAccountFormSchema = z
  .object({
    nickname: z.string().trim().min(1, VALIDATION_MESSAGES.required).max(60),
    exchange: z.string().trim().min(1, VALIDATION_MESSAGES.required),
    marketType: z.enum(['spot', 'future']),
    apiKey: z.string(),
    apiSecret: z.string(),
    passphrase: z.string(),
    sandbox: z.boolean(),
    startingBalance: z.string(),
    /** Copied from the chosen venue, so the rule below can ask for the passphrase. */
    needsPassphrase: z.boolean(),
    /**
     * Issue 20: the user confirms the key cannot withdraw, asked only once the venue said it does not report
     * the key's withdraw permission (WITHDRAW_PERMISSION_UNKNOWN).
     */
    withdrawRiskAcknowledged: z.boolean(),
  })
  .superRefine((form, ctx) => {
    const missing = (path: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message: VALIDATION_MESSAGES.required });
    if (form.exchange === PAPER_VENUE_ID) {
      if (!form.startingBalance.trim()) missing('startingBalance');
      else {
        const balance = paperBalanceSchema.safeParse(form.startingBalance);
        if (!balance.success) {
          ctx.addIssue({
            code: 'custom',
            path: ['startingBalance'],
            message: balance.error.issues[0]!.message,
          });
        }
      }
      return;
    }
    if (!form.apiKey.trim()) missing('apiKey');
    if (!form.apiSecret.trim()) missing('apiSecret');
    if (form.needsPassphrase && !form.passphrase.trim()) missing('passphrase');
  });

export type ConnectAccountForm = z.infer<typeof connectAccountFormSchema>;

export const emptyConnectAccountForm: ConnectAccountForm = {
  nickname: '',
  exchange: PAPER_VENUE_ID,
  marketType: 'spot',
  apiKey: '',
  apiSecret: '',
  passphrase: '',
  sandbox: false,
  startingBalance: DEFAULT_PAPER_BALANCE,
  needsPassphrase: false,
  withdrawRiskAcknowledged: false,
};

/** The POST body: only what the chosen venue needs, keys never sent for paper. */
export function toCreateAccountBody(form: ConnectAccountForm) {
  const base = { nickname: form.nickname.trim(), exchange: form.exchange, marketType: form.marketType };
  if (form.exchange === PAPER_VENUE_ID) {
    return { ...base, startingBalance: paperBalanceSchema.parse(form.startingBalance) };
  }
  return {
    ...base,
    apiKey: form.apiKey.trim(),
    apiSecret: form.apiSecret.trim(),
    ...(form.passphrase.trim() ? { passphrase: form.passphrase.trim() } : {}),
    sandbox: form.sandbox,
    ...(form.withdrawRiskAcknowledged ? { withdrawRiskAcknowledged: true } : {}),
  };
}

export type CreateAccountBody = ReturnType<typeof toCreateAccountBody>;

export async function createTradingAccount(body: CreateAccountBody): Promise<TradingAccount> {
  return parseResults(tradingAccountSchema, await api.post<unknown>('/api/trading-accounts', body));
}

export function useCreateTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTradingAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tradingAccountsQueryOptions().queryKey }),
  });
}
