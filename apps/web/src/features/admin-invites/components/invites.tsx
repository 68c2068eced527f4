import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { FormError } from '../../../components/ui/form-error';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { EmptyState, queryState } from '../../../components/ui/states';
import { Badge, type Tone } from '../../../components/ui/status-badge';
import { type Column } from '../../../components/ui/table';
import { CardFigure, RowCard, TableOrCards } from '../../../components/ui/table-or-cards';
import { useFormatters } from '../../../lib/use-formatters';
import { usePageParam } from '../../../lib/use-search-writer';
import { ignoreRefusal, useSingleFlight } from '../../../lib/use-single-flight';
import { copyText } from '../../strategies/components/copy-button';
import {
  DEFAULT_INVITE_DAYS,
  INVITES_PAGE_SIZE,
  type Invite,
  type InviteCreated,
  useCreateInvite,
  useInvites,
  useRevokeInvite,
} from '../api/invites';

const STATUS_TONE: Record<Invite['status'], Tone> = {
  pending: 'info',
  used: 'success',
  expired: 'neutral',
  revoked: 'danger',
};
const DAY_CHOICES = [1, 3, 7, 14, 30] as const;

/**
 * Admin → Invites (issue 20): with registration closed (KAIROS_REGISTRATION=invite), each link lets one person
 * register before it expires. A new link is shown once, to copy; the list says what became of each.
 */
export function Invites() {
  return (
    <div className="flex flex-col gap-5">
      <CreateInvite />
      <InviteList />
    </div>
  );
}

function CreateInvite() {
  const { t } = useTranslation();
  const create = useCreateInvite();
  const [note, setNote] = useState('');
  const [days, setDays] = useState(String(DEFAULT_INVITE_DAYS));
  const [made, setMade] = useState<InviteCreated | null>(null);

  // One link for a double click on Create (issue 21): the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    void singleFlight(() =>
      create
        .mutateAsync({ ...(trimmed ? { note: trimmed } : {}), expiresInDays: Number(days) })
        .then((invite) => {
          setMade(invite);
          setNote('');
        }, ignoreRefusal),
    );
  };

  return (
    <Card>
      <CardHeader title={t('invites.create.title')} description={t('invites.create.description')} />
      <CardBody className="flex flex-col gap-4">
        <form
          onSubmit={submit}
          noValidate
          className="grid items-end gap-x-4 gap-y-3 sm:grid-cols-[1fr_12rem_auto]"
        >
          <Input
            label={t('invites.create.note')}
            maxLength={100}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <Select
            label={t('invites.create.expiresIn')}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            options={DAY_CHOICES.map((d) => ({
              value: String(d),
              label: t('invites.create.days', { count: d }),
            }))}
          />
          <Button type="submit" loading={create.isPending}>
            {t('invites.create.submit')}
          </Button>
        </form>
        {create.isError ? <FormError title={t('invites.create.failed')} error={create.error} /> : null}
        {made ? <NewLink invite={made} /> : null}
      </CardBody>
    </Card>
  );
}

/** The link just made: its token is in no list, so this is the one time it can be copied. */
function NewLink({ invite }: { invite: InviteCreated }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  return (
    <div className="flex flex-col gap-2 rounded-md border border-accent/30 bg-accent/5 p-3">
      <div className="flex flex-wrap items-end gap-2">
        <Input
          label={t('invites.link.label')}
          readOnly
          value={invite.link}
          fieldClassName="min-w-0 flex-1"
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="secondary"
          aria-label={t('invites.link.copyLabel')}
          icon={copied ? <CheckIcon size={14} className="text-gain" /> : <CopyIcon size={14} />}
          onClick={() =>
            copyText(invite.link).then(
              () => setCopied(true),
              () => setCopyFailed(true),
            )
          }
        >
          {copied ? t('invites.link.copied') : t('invites.link.copy')}
        </Button>
      </div>
      <p className="text-xs text-muted">
        {copyFailed
          ? t('invites.link.copyFailed')
          : t('invites.link.once', { time: format.dateTime(invite.expiresAt) })}
      </p>
    </div>
  );
}

function InviteList() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = usePageParam();
  const invites = useInvites(page);
  const revoke = useRevokeInvite();
  // One revoke at a time: a double click sent two, and the second was refused (and audited) as not pending.
  const singleFlight = useSingleFlight();
  const revokeOnce = (id: string) => singleFlight(() => revoke.mutateAsync(id).catch(ignoreRefusal));

  const columns: Column<Invite>[] = [
    {
      key: 'note',
      header: t('invites.columns.note'),
      cell: (invite) =>
        invite.note ? (
          <span className="break-words">{invite.note}</span>
        ) : (
          <span className="text-subtle">{t('invites.noNote')}</span>
        ),
    },
    {
      key: 'status',
      header: t('invites.columns.status'),
      cell: (invite) => (
        <Badge tone={STATUS_TONE[invite.status]}>{t(`invites.status.${invite.status}`)}</Badge>
      ),
    },
    {
      key: 'expiresAt',
      header: t('invites.columns.expiresAt'),
      cell: (invite) => <span className="num whitespace-nowrap">{format.dateTime(invite.expiresAt)}</span>,
    },
    {
      key: 'usedBy',
      header: t('invites.columns.usedBy'),
      cell: (invite) =>
        invite.usedByEmail ? (
          <span className="break-all">{invite.usedByEmail}</span>
        ) : (
          <span className="text-subtle">—</span>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('invites.columns.actions')}</span>,
      className: 'w-px text-right',
      cell: (invite) =>
        invite.status === 'pending' ? (
          <Button
            variant="ghost"
            size="sm"
            className="hover:text-loss"
            loading={revoke.isPending && revoke.variables === invite.id}
            aria-label={
              invite.note ? t('invites.revoke.labelFor', { note: invite.note }) : t('invites.revoke.label')
            }
            onClick={() => void revokeOnce(invite.id)}
          >
            {t('invites.revoke.action')}
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="flex flex-col gap-3">
      {revoke.isError ? <FormError title={t('invites.revoke.failed')} error={revoke.error} /> : null}
      <TableOrCards
        caption={t('invites.caption')}
        columns={columns}
        rows={invites.data?.items ?? []}
        rowKey={(invite) => invite.id}
        {...queryState(invites)}
        // Below 640 px a card a link (issue 21: the five columns scrolled sideways on a phone).
        card={(invite, cell) => (
          <RowCard title={<span className="font-medium">{cell('note')}</span>} corner={cell('status')}>
            <span className="flex items-end justify-between gap-3">
              <span className="flex flex-wrap gap-x-4 gap-y-2">
                <CardFigure label={t('invites.columns.expiresAt')}>{cell('expiresAt')}</CardFigure>
                <CardFigure label={t('invites.columns.usedBy')} className="min-w-0">
                  {cell('usedBy')}
                </CardFigure>
              </span>
              <span className="-mr-1">{cell('actions')}</span>
            </span>
          </RowCard>
        )}
        empty={
          <Card>
            <EmptyState title={t('invites.empty.title')} description={t('invites.empty.description')} />
          </Card>
        }
        pagination={{
          page,
          pageSize: INVITES_PAGE_SIZE,
          total: invites.data?.total ?? 0,
          onPageChange: setPage,
        }}
      />
    </div>
  );
}
