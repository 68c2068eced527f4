import { apiError, type Invite, type InviteCreated, type InviteStatus } from '@kairos/contract';
import { hashToken, newToken } from '../../lib/crypto';
import { ConflictError, NotFoundError } from '../../lib/errors';
import type { AdminActor, AuditService } from '../audit/audit-service';
import type { InviteRow, InvitesRepo } from './invites-repo';

const DAY_MS = 86_400_000;

export type InvitesService = ReturnType<typeof createInvitesService>;

function statusOf(row: InviteRow, now = Date.now()): InviteStatus {
  if (row.revokedAt) return 'revoked';
  if (row.usedAt) return 'used';
  return row.expiresAt.getTime() <= now ? 'expired' : 'pending';
}

function toDto(row: InviteRow): Invite {
  return {
    id: row.id,
    note: row.note,
    status: statusOf(row),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    usedAt: row.usedAt?.toISOString() ?? null,
    createdByEmail: row.createdByEmail,
    usedByEmail: row.usedByEmail,
  };
}

/**
 * Invite links (issue 20): while registration is closed (`KAIROS_REGISTRATION=invite`), an admin's link lets
 * one person register, once, before it expires. The token is handed over once, in the link made at creation;
 * only its hash is kept. Making and revoking are audited, and so is each use.
 */
export function createInvitesService(deps: {
  repo: InvitesRepo;
  audit: Pick<AuditService, 'audited' | 'recordAudit'>;
  /** Where users reach Kairos (KAIROS_PUBLIC_URL): links are built from it, never from a request's Host. */
  publicUrl: string;
}) {
  const { repo, audit } = deps;

  async function found(id: string): Promise<InviteRow> {
    const row = await repo.find(id);
    if (!row) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'invite' }));
    return row;
  }

  return {
    async list(q: { skip: number; take: number }) {
      const { rows, total } = await repo.list(q);
      return { results: rows.map(toDto), total, skip: q.skip, take: q.take };
    },

    async create(actor: AdminActor, input: { note?: string; expiresInDays: number }) {
      const token = newToken('kinv');
      const expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS);
      const id = await repo.insert({
        tokenHash: hashToken(token),
        note: input.note || null,
        createdBy: actor.id,
        expiresAt,
      });
      await audit.recordAudit(actor, {
        action: 'invite.create',
        target: `invite:${id}`,
        details: { note: input.note || null, expiresAt: expiresAt.toISOString() },
        outcome: 'ok',
      });
      const link = `${deps.publicUrl}/register?${new URLSearchParams({ invite: token })}`;
      return { ...toDto(await found(id)), link } satisfies InviteCreated;
    },

    async revoke(actor: AdminActor, id: string): Promise<Invite> {
      return audit.audited(actor, { action: 'invite.revoke', target: `invite:${id}` }, async () => {
        const before = await found(id);
        if (!(await repo.revoke(id))) {
          const status = statusOf(before);
          throw new ConflictError(
            ...apiError('INVITE_NOT_PENDING', status === 'pending' ? {} : { variant: status }),
          );
        }
        return toDto(await found(id));
      });
    },

    /** Takes the invite of this token for one registration; its id, or undefined when it does not work. */
    async claim(token: string): Promise<string | undefined> {
      return repo.claim(hashToken(token));
    },

    /** The registration made its account: the invite names it, and the audit log says who used which. */
    async used(inviteId: string, user: { id: string; email: string }): Promise<void> {
      await repo.markUsedBy(inviteId, user.id);
      await audit.recordAudit(
        { id: user.id, email: user.email, kind: 'user' },
        { action: 'invite.use', target: `invite:${inviteId}`, outcome: 'ok' },
      );
    },

    /** The registration made no account (its address had one): the invite works again. */
    async release(inviteId: string): Promise<void> {
      await repo.release(inviteId);
    },
  };
}
