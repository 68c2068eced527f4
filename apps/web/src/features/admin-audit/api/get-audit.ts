import { type AuditEntry, auditEntrySchema } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';

export type { AuditEntry };

export const AUDIT_PAGE_SIZE = 25;

/** The audit log's filters: an action or its family, a part of the actor, a time range (ISO instants). */
export interface AuditFilters {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
  page: number;
}

/** GET /admin/audit?skip&take&action&actor&from&to: what admins (and the system) did, newest first. */
export async function getAudit(filters: AuditFilters): Promise<Page<AuditEntry>> {
  const { page, ...rest } = filters;
  const body = await api.get<unknown>('/admin/audit', {
    params: { ...rest, skip: (page - 1) * AUDIT_PAGE_SIZE, take: AUDIT_PAGE_SIZE },
  });
  const result = unwrapPage(body, { page, pageSize: AUDIT_PAGE_SIZE }, auditEntrySchema);
  return { ...result, page, pageSize: AUDIT_PAGE_SIZE };
}

export const auditQueryOptions = (filters: AuditFilters) =>
  queryOptions({
    queryKey: ['admin', 'audit', filters],
    queryFn: () => getAudit(filters),
    placeholderData: keepPreviousData,
  });

export function useAudit(filters: AuditFilters) {
  return useQuery(auditQueryOptions(filters));
}
