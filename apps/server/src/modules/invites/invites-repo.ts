import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { invites, users } from '../../db/schema/index';

export type InviteRow = typeof invites.$inferSelect & {
  createdByEmail: string | null;
  usedByEmail: string | null;
};

export type InvitesRepo = ReturnType<typeof createInvitesRepo>;

/** Still usable: neither used nor revoked, and not expired (by the database's clock). */
const pending = and(isNull(invites.usedAt), isNull(invites.revokedAt), gt(invites.expiresAt, sql`now()`));

/** Invite links (issue 20): stored by the hash of their token only. */
export function createInvitesRepo(db: Database) {
  const creator = alias(users, 'creator');
  const invitee = alias(users, 'invitee');
  const withEmails = () =>
    db
      .select({ invite: invites, createdByEmail: creator.email, usedByEmail: invitee.email })
      .from(invites)
      .leftJoin(creator, eq(creator.id, invites.createdBy))
      .leftJoin(invitee, eq(invitee.id, invites.usedBy));
  const flat = (r: {
    invite: typeof invites.$inferSelect;
    createdByEmail: string | null;
    usedByEmail: string | null;
  }) => ({ ...r.invite, createdByEmail: r.createdByEmail, usedByEmail: r.usedByEmail }) satisfies InviteRow;

  return {
    async insert(values: {
      tokenHash: string;
      note: string | null;
      createdBy: string | null;
      expiresAt: Date;
    }) {
      const [row] = await db.insert(invites).values(values).returning({ id: invites.id });
      return row!.id;
    },
    async find(id: string): Promise<InviteRow | undefined> {
      const [row] = await withEmails().where(eq(invites.id, id));
      return row && flat(row);
    },
    /** Newest first. */
    async list(q: { skip: number; take: number }) {
      const [rows, [total]] = await Promise.all([
        withEmails().orderBy(desc(invites.createdAt), desc(invites.id)).offset(q.skip).limit(q.take),
        db.select({ n: count() }).from(invites),
      ]);
      return { rows: rows.map(flat), total: total?.n ?? 0 };
    },
    /**
     * Takes a working invite for one registration, in one statement (two people racing with the same link:
     * one gets it). Its id, or undefined for a token that is unknown, used, revoked or expired.
     */
    async claim(tokenHash: string): Promise<string | undefined> {
      const [row] = await db
        .update(invites)
        .set({ usedAt: new Date() })
        .where(and(eq(invites.tokenHash, tokenHash), pending))
        .returning({ id: invites.id });
      return row?.id;
    },
    /** The account the claimed invite made. */
    async markUsedBy(id: string, userId: string): Promise<void> {
      await db.update(invites).set({ usedBy: userId }).where(eq(invites.id, id));
    },
    /** A claim that made no account (the address had one) gives the invite back. */
    async release(id: string): Promise<void> {
      await db
        .update(invites)
        .set({ usedAt: null })
        .where(and(eq(invites.id, id), isNull(invites.usedBy)));
    },
    /** Revokes a pending invite; false when it is not pending (used, revoked or expired) or unknown. */
    async revoke(id: string): Promise<boolean> {
      const rows = await db
        .update(invites)
        .set({ revokedAt: new Date() })
        .where(and(eq(invites.id, id), pending))
        .returning({ id: invites.id });
      return rows.length > 0;
    },
  };
}
