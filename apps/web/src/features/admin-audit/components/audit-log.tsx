import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { EmptyState, queryState } from '../../../components/ui/states';
import { Badge } from '../../../components/ui/status-badge';
import type { Column } from '../../../components/ui/table';
import { NoMatch, TableOrCards } from '../../../components/ui/table-or-cards';
import { dayBound } from '../../../lib/day-bound';
import { useFormatters } from '../../../lib/use-formatters';
import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditFilters, useAudit } from '../api/get-audit';
import { useSearchWriter } from '../../../lib/use-search-writer';

/** The action families the server writes, offered as suggestions (any action or family can be typed). */
const KNOWN_ACTIONS = [
  'account',
  'admin.forbidden',
  'alert',
  'billing',
  'outbox.read',
  'settings',
  'strategy',
] as const;

/** The filters live in the address (`?action=billing&actor=ada&from=…&page=2`). */
export function auditFiltersFromSearch(search: URLSearchParams): AuditFilters {
  const page = Number(search.get('page'));
  return {
    action: search.get('action')?.trim() || undefined,
    actor: search.get('actor')?.trim() || undefined,
    from: dayBound(search.get('from') ?? '', false),
    to: dayBound(search.get('to') ?? '', true),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

const FILTER_KEYS = ['action', 'actor', 'from', 'to'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** Who did it: the admin's email, or "System" for scheduled jobs. */
function actorName(entry: AuditEntry, system: string) {
  return entry.actorEmail ?? (entry.actor === 'system' ? system : entry.actor);
}

/**
 * The admin audit log (issue 21): every admin action and scheduled job, newest first, with its outcome and
 * details; filtered by action (or family), actor and dates, paged.
 */
export function AuditLog() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [search, setSearch] = useSearchWriter();
  const filters = auditFiltersFromSearch(search);
  const audit = useAudit(filters);
  const [typed, setTyped] = useState({
    action: search.get('action') ?? '',
    actor: search.get('actor') ?? '',
  });
  const filtered = FILTER_KEYS.some((key) => search.get(key));

  const setFilter = (key: FilterKey | 'page', value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        if (key !== 'page') next.delete('page');
        return next;
      },
      { replace: key !== 'page' },
    );
  const applyText = (key: 'action' | 'actor') => (event: FormEvent) => {
    event.preventDefault();
    if (typed[key].trim() !== (search.get(key) ?? '')) setFilter(key, typed[key].trim());
  };
  const clear = () => {
    setTyped({ action: '', actor: '' });
    setSearch(() => new URLSearchParams(), { replace: true });
  };

  const outcome = (entry: AuditEntry) =>
    entry.outcome === 'ok' ? (
      <Badge tone="success" glyph="✓">
        {t('audit.outcome.ok')}
      </Badge>
    ) : (
      <Badge tone="danger" glyph="!" title={entry.error ?? undefined}>
        {t('audit.outcome.error')}
      </Badge>
    );
  const details = (entry: AuditEntry) =>
    Object.keys(entry.details).length === 0 && !entry.error ? (
      <span className="text-subtle">—</span>
    ) : (
      <details>
        <summary className="cursor-pointer text-sm text-accent">{t('audit.showDetails')}</summary>
        {entry.error ? <p className="mt-1 text-xs text-loss">{entry.error}</p> : null}
        <pre className="mt-1 max-w-[75vw] text-xs break-words whitespace-pre-wrap text-muted sm:max-w-md">
          {JSON.stringify(entry.details, null, 2)}
        </pre>
      </details>
    );

  const columns: Column<AuditEntry>[] = [
    {
      key: 'at',
      header: t('audit.columns.at'),
      cell: (entry) => (
        <time dateTime={entry.at} className="num whitespace-nowrap text-muted">
          {format.dateTime(entry.at)}
        </time>
      ),
    },
    {
      key: 'actor',
      header: t('audit.columns.actor'),
      cell: (entry) => <span className="break-all">{actorName(entry, t('audit.system'))}</span>,
    },
    {
      key: 'action',
      header: t('audit.columns.action'),
      cell: (entry) => <code className="text-xs text-fg">{entry.action}</code>,
    },
    {
      key: 'target',
      header: t('audit.columns.target'),
      cell: (entry) => <span className="text-xs break-all text-muted">{entry.target}</span>,
    },
    {
      key: 'outcome',
      header: t('audit.columns.outcome'),
      cell: (entry) => outcome(entry),
    },
    {
      key: 'details',
      header: t('audit.columns.details'),
      cell: (entry) => details(entry),
    },
  ];

  const items = audit.data?.items ?? [];
  const pagination = {
    page: filters.page,
    pageSize: AUDIT_PAGE_SIZE,
    total: audit.data?.total ?? 0,
    onPageChange: (next: number) => setFilter('page', next > 1 ? String(next) : ''),
  };
  const empty = filtered ? (
    <NoMatch
      title={t('audit.noMatch.title')}
      description={t('audit.noMatch.description')}
      clearLabel={t('audit.filters.clear')}
      onClear={clear}
    />
  ) : (
    <EmptyState title={t('audit.empty.title')} description={t('audit.empty.description')} />
  );
  const body = (
    <TableOrCards
      {...queryState(audit)}
      empty={empty}
      caption={t('audit.caption')}
      columns={columns}
      rows={items}
      rowKey={(entry) => entry.id}
      pagination={pagination}
      card={(entry) => (
        <div className="flex flex-col gap-1.5 rounded-lg border border-line bg-surface p-3 text-sm">
          <span className="flex items-center justify-between gap-2">
            <code className="text-xs break-all text-fg">{entry.action}</code>
            {outcome(entry)}
          </span>
          <span className="text-xs break-all text-muted">{entry.target}</span>
          <span className="flex flex-wrap justify-between gap-x-2 text-xs text-muted">
            <span className="break-all">{actorName(entry, t('audit.system'))}</span>
            <time dateTime={entry.at}>{format.dateTime(entry.at)}</time>
          </span>
          {details(entry)}
        </div>
      )}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      <section
        aria-label={t('audit.filters.label')}
        className="grid grid-cols-1 gap-3 rounded-lg border border-line bg-surface p-3 sm:grid-cols-2 lg:grid-cols-4"
      >
        <form onSubmit={applyText('action')} onBlur={applyText('action')}>
          <Input
            label={t('audit.filters.action')}
            placeholder={t('audit.filters.actionPlaceholder')}
            value={typed.action}
            onChange={(event) => setTyped((current) => ({ ...current, action: event.target.value }))}
            list="audit-actions"
            spellCheck={false}
            autoCapitalize="none"
          />
          <datalist id="audit-actions">
            {KNOWN_ACTIONS.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </form>
        <form onSubmit={applyText('actor')} onBlur={applyText('actor')}>
          <Input
            label={t('audit.filters.actor')}
            placeholder={t('audit.filters.actorPlaceholder')}
            value={typed.actor}
            onChange={(event) => setTyped((current) => ({ ...current, actor: event.target.value }))}
            spellCheck={false}
            autoCapitalize="none"
          />
        </form>
        <Input
          type="date"
          label={t('audit.filters.from')}
          value={search.get('from') ?? ''}
          max={search.get('to') ?? undefined}
          onChange={(event) => setFilter('from', event.target.value)}
        />
        <Input
          type="date"
          label={t('audit.filters.to')}
          value={search.get('to') ?? ''}
          min={search.get('from') ?? undefined}
          onChange={(event) => setFilter('to', event.target.value)}
        />
        {filtered ? (
          <div className="col-span-full flex justify-end">
            <Button variant="ghost" size="sm" onClick={clear}>
              {t('audit.filters.clear')}
            </Button>
          </div>
        ) : null}
      </section>
      {body}
    </div>
  );
}
