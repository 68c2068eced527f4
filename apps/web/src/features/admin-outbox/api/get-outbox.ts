import type { OutboxMail } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';

export type { OutboxMail };

export const OUTBOX_PAGE_SIZE = 20;

/** GET /admin/outbox?skip&take: the mail Kairos sent or keeps, newest first, bodies included. */
export async function getOutbox(page: number): Promise<Page<OutboxMail>> {
  const body = await api.get<unknown>('/admin/outbox', {
    params: { skip: (page - 1) * OUTBOX_PAGE_SIZE, take: OUTBOX_PAGE_SIZE },
  });
  const result = unwrapPage<OutboxMail>(body, { page, pageSize: OUTBOX_PAGE_SIZE });
  return { ...result, page, pageSize: OUTBOX_PAGE_SIZE };
}

export const outboxQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'outbox', { page }],
    queryFn: () => getOutbox(page),
    placeholderData: keepPreviousData,
  });

export function useOutbox(page: number) {
  return useQuery(outboxQueryOptions(page));
}
