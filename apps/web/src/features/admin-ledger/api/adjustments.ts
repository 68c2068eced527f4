import {
  type BillingUser,
  type LedgerAdjustment,
  type LedgerAdjustmentBody,
  type LedgerAdjustmentListItem,
  billingUserSchema,
  ledgerAdjustmentListItemSchema,
  ledgerAdjustmentSchema,
} from '@kairos/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Page, api, parseResults, unwrapPage } from '../../../lib/api-client';

export type { LedgerAdjustment, LedgerAdjustmentBody, LedgerAdjustmentListItem };

export const ADJUSTMENTS_PAGE_SIZE = 25;
/** The users the form offers, by email (the billing list's largest page). */
const USERS_TAKE = 200;
const adjustmentsKey = ['admin', 'ledger', 'adjustments'] as const;

/** GET /admin/ledger/adjustments?skip&take: the adjustments made, newest first, with each user's email. */
export async function getAdjustments(page: number): Promise<Page<LedgerAdjustmentListItem>> {
  const body = await api.get<unknown>('/admin/ledger/adjustments', {
    params: { skip: (page - 1) * ADJUSTMENTS_PAGE_SIZE, take: ADJUSTMENTS_PAGE_SIZE },
  });
  const result = unwrapPage<LedgerAdjustmentListItem>(
    body,
    { page, pageSize: ADJUSTMENTS_PAGE_SIZE },
    ledgerAdjustmentListItemSchema,
  );
  return { ...result, page, pageSize: ADJUSTMENTS_PAGE_SIZE };
}

export function useAdjustments(page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...adjustmentsKey, { page }],
      queryFn: () => getAdjustments(page),
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /admin/billing/users: who an adjustment can be for (email and id). */
export async function getAdjustableUsers(): Promise<Pick<BillingUser, 'userId' | 'email'>[]> {
  const body = await api.get<unknown>('/admin/billing/users', { params: { skip: 0, take: USERS_TAKE } });
  const page = unwrapPage<BillingUser>(body, { page: 1, pageSize: USERS_TAKE }, billingUserSchema);
  return page.items.map(({ userId, email }) => ({ userId, email }));
}

export function useAdjustableUsers() {
  return useQuery(
    queryOptions({ queryKey: ['admin', 'ledger', 'users'] as const, queryFn: getAdjustableUsers }),
  );
}

/** POST /admin/ledger/adjustments: a new ledger event (never an edit), audited; the list follows. */
export function useAddAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LedgerAdjustmentBody) =>
      parseResults(ledgerAdjustmentSchema, await api.post<unknown>('/admin/ledger/adjustments', body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adjustmentsKey }),
  });
}
