import {
  type Invite,
  type InviteCreated,
  inviteCreatedSchema,
  inviteSchema,
  DEFAULT_INVITE_DAYS,
} from '@kairos/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Page, api, parseResults, unwrapPage } from '../../../lib/api-client';

export type { Invite, InviteCreated };
export { DEFAULT_INVITE_DAYS };

export const INVITES_PAGE_SIZE = 20;
const invitesKey = ['admin', 'invites'] as const;

/** GET /admin/invites?skip&take: the invite links, newest first, with their state (never their token). */
export async function getInvites(page: number): Promise<Page<Invite>> {
  const body = await api.get<unknown>('/admin/invites', {
    params: { skip: (page - 1) * INVITES_PAGE_SIZE, take: INVITES_PAGE_SIZE },
  });
  const result = unwrapPage<Invite>(body, { page, pageSize: INVITES_PAGE_SIZE }, inviteSchema);
  return { ...result, page, pageSize: INVITES_PAGE_SIZE };
}

export function useInvites(page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...invitesKey, { page }],
      queryFn: () => getInvites(page),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /admin/invites: a single-use link; its token is in `link`, shown this once. */
export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { note?: string; expiresInDays: number }) =>
      parseResults(inviteCreatedSchema, await api.post<unknown>('/admin/invites', input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitesKey }),
  });
}

/** DELETE /admin/invites/{id}: the link stops working. */
export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      parseResults(inviteSchema, await api.delete<unknown>(`/admin/invites/${encodeURIComponent(id)}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitesKey }),
  });
}
