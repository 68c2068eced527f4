import { VALIDATION_MESSAGES, tradingAccountSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { type TradingAccount, tradingAccountsQueryOptions } from './get-trading-accounts';

/** Nickname, sandbox, and key rotation: a new key goes with a new secret, or not at all. */
export const editAccountFormSchema = z
  .object({
    nickname: z.string().trim().min(1, VALIDATION_MESSAGES.required).max(60),
    sandbox: z.boolean(),
    rotate: z.boolean(),
    apiKey: z.string(),
    apiSecret: z.string(),
    passphrase: z.string(),
    needsPassphrase: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (!form.rotate) return;
    for (const path of ['apiKey', 'apiSecret'] as const) {
      if (!form[path].trim()) {
        ctx.addIssue({ code: 'custom', path: [path], message: VALIDATION_MESSAGES.required });
      }
    }
    if (form.needsPassphrase && !form.passphrase.trim()) {
      ctx.addIssue({ code: 'custom', path: ['passphrase'], message: VALIDATION_MESSAGES.required });
    }
  });

export type EditAccountForm = z.infer<typeof editAccountFormSchema>;

export interface UpdateAccountBody {
  nickname?: string;
  sandbox?: boolean;
  apiKey?: string;
  apiSecret?: string;
  passphrase?: string;
}

/** Only what changed: an unchanged sandbox flag on a real venue would re-verify the keys for nothing. */
export function toUpdateAccountBody(form: EditAccountForm, account: TradingAccount): UpdateAccountBody {
  const body: UpdateAccountBody = {};
  if (form.nickname.trim() !== account.nickname) body.nickname = form.nickname.trim();
  if (account.exchange !== 'paper' && form.sandbox !== account.sandbox) body.sandbox = form.sandbox;
  if (form.rotate) {
    body.apiKey = form.apiKey.trim();
    body.apiSecret = form.apiSecret.trim();
    if (form.passphrase.trim()) body.passphrase = form.passphrase.trim();
  }
  return body;
}

export async function updateTradingAccount({
  id,
  body,
}: {
  id: string;
  body: UpdateAccountBody;
}): Promise<TradingAccount> {
  return parseResults(
    tradingAccountSchema,
    await api.put<unknown>(`/api/trading-accounts/${encodeURIComponent(id)}`, body),
  );
}

export function useUpdateTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTradingAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tradingAccountsQueryOptions().queryKey }),
  });
}
