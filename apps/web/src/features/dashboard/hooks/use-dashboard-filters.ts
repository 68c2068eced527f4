import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type DashboardFilters, dashboardSearch, parseDashboardFilters } from '../utils/dashboard-filters';

export type FiltersUpdate = (current: DashboardFilters) => DashboardFilters;

/**
 * The dashboard's filters, read from and written to the URL's query string. The URL changes once
 * the route's loader has run, so changes made meanwhile (an account, then a bot, quickly) build
 * on the last one asked for, not on the URL that has not caught up yet.
 */
export function useDashboardFilters() {
  const [search, setSearch] = useSearchParams();
  const fromUrl = useMemo(() => parseDashboardFilters(search), [search]);
  const [pending, setPending] = useState<DashboardFilters | null>(null);
  if (pending && dashboardSearch(pending).toString() === search.toString()) setPending(null);
  const filters = pending ?? fromUrl;

  const latest = useRef(filters);
  useEffect(() => {
    latest.current = filters;
  });

  const updateFilters = useCallback(
    (update: FiltersUpdate) => {
      const next = update(latest.current);
      latest.current = next;
      setPending(next);
      setSearch(dashboardSearch(next), { replace: true });
    },
    [setSearch],
  );
  return [filters, updateFilters] as const;
}
