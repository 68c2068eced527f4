import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { EmptyState, queryState } from '../../../components/ui/states';
import { Badge, type Tone } from '../../../components/ui/status-badge';
import { type Column } from '../../../components/ui/table';
import { CardFigure, RowCard, TableOrCards } from '../../../components/ui/table-or-cards';
import { useFormatters } from '../../../lib/use-formatters';
import { OUTBOX_PAGE_SIZE, type OutboxMail, useOutbox } from '../api/get-outbox';
import { usePageParam } from '../../../lib/use-search-writer';

const STATUS_TONE: Record<OutboxMail['status'], Tone> = {
  waiting: 'warning',
  sent: 'success',
  failed: 'danger',
};

/**
 * The mail outbox (issue 20): without SMTP, mail — password resets included — waits here for the admin to pass
 * it on; the log only says that one waits. Each mail's text opens in place.
 */
export function Outbox() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = usePageParam();
  const mails = useOutbox(page);

  // The message first: on a phone, what the mail is about shows without scrolling sideways.
  const columns: Column<OutboxMail>[] = [
    {
      key: 'message',
      header: t('outbox.columns.message'),
      cell: (mail) => (
        <details>
          <summary className="cursor-pointer text-fg">{mail.subject}</summary>
          <pre className="mt-2 max-w-[75vw] sm:max-w-xl text-xs break-words whitespace-pre-wrap text-muted">
            {mail.body}
          </pre>
        </details>
      ),
    },
    {
      key: 'to',
      header: t('outbox.columns.to'),
      cell: (mail) => <span className="break-all">{mail.to}</span>,
    },
    {
      key: 'status',
      header: t('outbox.columns.status'),
      cell: (mail) => (
        <Badge tone={STATUS_TONE[mail.status]} title={mail.error ?? undefined}>
          {t(`outbox.status.${mail.status}`)}
        </Badge>
      ),
    },
    {
      key: 'createdAt',
      header: t('outbox.columns.createdAt'),
      cell: (mail) => <span className="num whitespace-nowrap">{format.dateTime(mail.createdAt)}</span>,
    },
  ];

  return (
    <TableOrCards
      caption={t('outbox.title')}
      columns={columns}
      rows={mails.data?.items ?? []}
      rowKey={(mail) => mail.id}
      {...queryState(mails)}
      // Below 640 px a card a mail (issue 21: the four columns scrolled sideways on a phone).
      card={(mail, cell) => (
        <RowCard
          title={<span className="text-xs text-muted">{cell('createdAt')}</span>}
          corner={cell('status')}
        >
          <span className="min-w-0 break-words">{cell('message')}</span>
          <CardFigure label={t('outbox.columns.to')}>{cell('to')}</CardFigure>
        </RowCard>
      )}
      empty={
        <Card>
          <EmptyState title={t('outbox.empty.title')} description={t('outbox.empty.description')} />
        </Card>
      }
      pagination={{
        page,
        pageSize: OUTBOX_PAGE_SIZE,
        total: mails.data?.total ?? 0,
        onPageChange: setPage,
      }}
    />
  );
}
