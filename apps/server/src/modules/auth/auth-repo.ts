import { and, desc, eq, gt, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { SealedAt } from '../../lib/crypto';
import {
  authThrottle,
  passwordResets,
  recoveryCodes,
  sessions,
  streamTickets,
  users,
} from '../../db/schema/index';

export type UserRow = typeof users.$inferSelect;

/** Where a user's TOTP secret is sealed: enrolment's pending one, or the one in use (issue 20). */
export const totpSecretAt = (
  userId: string,
  column: 'totp_secret_sealed' | 'totp_pending_sealed',
): SealedAt => ({ table: 'users', column, row: userId });
export type SessionRow = typeof sessions.$inferSelect;

/** SQL for users, sessions, reset tokens and failure counters. */
export function createAuthRepo(db: Database) {
  /** The live session (not revoked, access not expired) matching `which`, with its user. */
  async function activeSessionWith(which: SQL) {
    const [row] = await db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(which, isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
    return row;
  }

  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email));
      return row;
    },

    async adminExists(): Promise<boolean> {
      const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
      return rows.length > 0;
    },

    async findUserById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    /** Insert, or undefined when the email is taken (unique index, no race). */
    async insertUser(values: typeof users.$inferInsert): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values(values)
        .onConflictDoNothing({ target: users.email })
        .returning();
      return row;
    },

    async updateUser(id: string, values: Partial<typeof users.$inferInsert>): Promise<UserRow> {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row!;
    },

    /**
     * Merges a partial preferences patch in one statement (notifications merged one level down),
     * so two saves at once never lose each other's fields.
     */
    async mergePreferences(id: string, patch: Record<string, unknown>): Promise<UserRow> {
      const { notifications, ...top } = patch as { notifications?: Record<string, unknown> };
      const [row] = await db
        .update(users)
        .set({
          preferences: sql`jsonb_set(
            ${users.preferences} || ${JSON.stringify(top)}::jsonb,
            '{notifications}',
            coalesce(${users.preferences}->'notifications', '{}'::jsonb) || ${JSON.stringify(notifications ?? {})}::jsonb
          )`,
          updatedAt: new Date(),
        })
        .where(eq(users.id, id))
        .returning();
      return row!;
    },

    /** Records a TOTP step as used; false when that step (or a later one) was already used. */
    async claimTotpStep(userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return rows.length === 1;
    },

    async insertSession(values: typeof sessions.$inferInsert): Promise<SessionRow> {
      const [row] = await db.insert(sessions).values(values).returning();
      return row!;
    },

    /** The live session behind an access token, with its user. */
    findActiveSessionByToken(tokenHash: string) {
      return activeSessionWith(eq(sessions.tokenHash, tokenHash));
    },

    async findSessionById(id: string): Promise<SessionRow | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
      return row;
    },

    /**
     * The user's live sign-ins: one row a family, its newest session (not revoked, its refresh token still
     * good, the family younger than `familyStartedAfter`). Rotated sessions are revoked, so this is the head.
     */
    async listLiveSessions(userId: string, familyStartedAfter: Date): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.refreshExpiresAt, new Date()),
            gt(sessions.familyStartedAt, familyStartedAfter),
          ),
        )
        .orderBy(desc(sessions.createdAt));
    },

    /** A session of this user that is not revoked yet (owner in the WHERE: another user's id is not found). */
    async findUnrevokedSession(id: string, userId: string): Promise<SessionRow | undefined> {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      return row;
    },

    /** A new stream ticket; tickets past their 30 seconds are swept on the way. */
    async insertStreamTicket(values: typeof streamTickets.$inferInsert): Promise<void> {
      await db.delete(streamTickets).where(lt(streamTickets.expiresAt, new Date()));
      await db.insert(streamTickets).values(values);
    },

    /** Uses a ticket once (unused, unexpired); returns its live session and user, or undefined. */
    async redeemStreamTicket(ticketHash: string) {
      const [ticket] = await db
        .update(streamTickets)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(streamTickets.ticketHash, ticketHash),
            isNull(streamTickets.usedAt),
            gt(streamTickets.expiresAt, new Date()),
          ),
        )
        .returning({ sessionId: streamTickets.sessionId });
      return ticket ? activeSessionWith(eq(sessions.id, ticket.sessionId)) : undefined;
    },

    async findSessionByRefresh(refreshHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.refreshHash, refreshHash));
      return row;
    },

    /** Marks a refresh token used; false when someone else used it first (concurrent reuse). */
    async markRotated(sessionId: string): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ rotatedAt: new Date() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.rotatedAt), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length === 1;
    },

    async revokeSession(sessionId: string, reason: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    async revokeFamily(familyId: string, reason: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
    },

    /** Revokes every session of a user except, optionally, the current family. */
    async revokeUserSessions(userId: string, reason: string, keepFamilyId?: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            keepFamilyId ? ne(sessions.familyId, keepFamilyId) : undefined,
          ),
        );
    },

    /** Whether the account signed in from this address within `days` (a client its owner uses). */
    async signedInFrom(email: string, ip: string, days: number): Promise<boolean> {
      const rows = await db
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(users.email, email),
            eq(sessions.ip, ip),
            gt(sessions.createdAt, new Date(Date.now() - days * 86_400_000)),
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    async insertPasswordReset(values: typeof passwordResets.$inferInsert): Promise<void> {
      await db.insert(passwordResets).values(values);
    },

    /** Consumes a reset token once; returns its user id when valid. */
    async consumePasswordReset(tokenHash: string, userId: string): Promise<boolean> {
      const rows = await db
        .update(passwordResets)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResets.tokenHash, tokenHash),
            eq(passwordResets.userId, userId),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, new Date()),
          ),
        )
        .returning({ id: passwordResets.id });
      return rows.length === 1;
    },

    /** Every reset token of the user not used yet stops working (a reset or a password change happened). */
    async revokePasswordResets(userId: string): Promise<void> {
      await db
        .update(passwordResets)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    },

    /** Failures counted in the current window for each key (expired windows count as zero). */
    async throttleState(keys: string[], windowSeconds: number) {
      if (keys.length === 0) return [];
      return db
        .select()
        .from(authThrottle)
        .where(
          and(
            inArray(authThrottle.key, keys),
            gt(authThrottle.windowStartedAt, sql`now() - make_interval(secs => ${windowSeconds})`),
          ),
        );
    },

    /**
     * One failure more on each key, all in one statement (a window past its length starts again), at `at`
     * (the app's clock, which the delays are measured on).
     */
    async recordFailures(keys: string[], windowSeconds: number, at: Date): Promise<void> {
      if (keys.length === 0) return;
      await db
        .insert(authThrottle)
        .values(keys.map((key) => ({ key, failures: 1, lastFailureAt: at })))
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            lastFailureAt: at,
            failures: sql`CASE WHEN ${authThrottle.windowStartedAt} <= now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE ${authThrottle.failures} + 1 END`,
            windowStartedAt: sql`CASE WHEN ${authThrottle.windowStartedAt} <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE ${authThrottle.windowStartedAt} END`,
          },
        });
    },

    async clearFailures(keys: string[]): Promise<void> {
      if (keys.length > 0) await db.delete(authThrottle).where(inArray(authThrottle.key, keys));
    },

    /** The user's 2FA recovery codes become these (hashed) ones; the earlier ones, used or not, go. */
    async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        if (codeHashes.length > 0)
          await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      });
    },

    /** The hashes of the user's recovery codes not used yet. */
    async unusedRecoveryCodes(userId: string): Promise<{ id: string; codeHash: string }[]> {
      return db
        .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    },

    /** Marks a recovery code used; false when it was used meanwhile (two logins racing). */
    async useRecoveryCode(id: string): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(recoveryCodes.id, id), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return rows.length > 0;
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
