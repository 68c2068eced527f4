import {
  type AlertFilterName,
  filtersFromSearch,
  filtersToSearch,
  hasFilters,
  withFilter,
} from '../api/alert-filters';
import { useSearchWriter } from '../../../lib/use-search-writer';
import { AlertDetailDrawer } from './alert-detail-drawer';
import { AlertFiltersForm } from './alert-filters-form';
import { AlertsTable } from './alerts-table';
import { useAlertActions } from './use-alert-actions';
import { WebhookRejections } from './webhook-rejections';
import { WorkerDownBanner } from './worker-down-banner';

/** The open alert's id, next to the filters in the URL: a link opens the same view. */
const OPEN_ALERT = 'alert';

/** AdminAlerts (spec §2): filters kept in the URL, a paged table and a detail drawer. */
export function AdminAlerts() {
  const [search, setSearch] = useSearchWriter();
  const filters = filtersFromSearch(search);
  const openId = search.get(OPEN_ALERT);
  const actions = useAlertActions();

  const changeFilter = (name: AlertFilterName, value: string, options?: { replace?: boolean }) =>
    setSearch(
      (current) => filtersToSearch(withFilter(filtersFromSearch(current), name, value), current),
      options,
    );
  const open = (id: string | null) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set(OPEN_ALERT, id);
      else next.delete(OPEN_ALERT);
      return next;
    });
  const clear = () => setSearch((current) => filtersToSearch({ page: 1 }, current));

  return (
    <div className="flex flex-col gap-4">
      <WorkerDownBanner />
      <WebhookRejections />
      <AlertFiltersForm filters={filters} onChange={changeFilter} onClear={clear} />
      <AlertsTable
        filters={filters}
        filtered={hasFilters(filters)}
        onPageChange={(page) =>
          setSearch((current) => filtersToSearch({ ...filtersFromSearch(current), page }, current))
        }
        onOpen={(alert) => open(alert.id)}
        onClearFilters={clear}
        actions={actions}
      />
      {openId ? <AlertDetailDrawer alertId={openId} onClose={() => open(null)} actions={actions} /> : null}
      {actions.dialog}
    </div>
  );
}
