import { randomInt, randomUUID } from 'node:crypto';
import { DEFAULT_PREFERENCES, type SessionInfo, type User, apiError } from '@kairos/contract';
import type { Sealer } from '../../lib/crypto';
import { constantTimeEqual, hashToken, newToken } from '../../lib/crypto';
import {
  DomainRuleError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../../lib/errors';
import type { InvitesService } from '../invites/invites-service';
import type { Mailer } from '../mail/mailer';
import { totpSecretAt, type AuthRepo, type UserRow } from './auth-repo';
import type { SessionCache } from './session-cache';
import { burnPasswordCheck, hashPassword, isCommonPassword, verifyPassword } from './password-policy';
import { matchTotpStep, newTotpSecret, totpEnrolment } from './totp';

export const ACCESS_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
/** Spec §9: refresh token nominal lifetime 7 days. */
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A stream ticket opens one event stream within this time (issue 20). */
export const STREAM_TICKET_TTL_MS = 30_000;
/** Issue 20: a sign-in lasts at most 30 days from its first session, however often it is refreshed. */
export const SESSION_FAMILY_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const THROTTLE_WINDOW_S = 15 * 60;
/** DESIGN §3: 10 failures / 15 min per account; an IP gets more room (shared NATs). */
const MAX_FAILURES_PER_ACCOUNT = 10;
const MAX_FAILURES_PER_IP = 50;
/**
 * Issue 20's progressive delays, per account and client together: after this many failures in the window,
 * each failure makes that client's next attempt on the account wait 1 s, then 2 s, 4 s… up to the window.
 */
const FREE_FAILURES_PER_CLIENT = 3;

/** How long a client waits after its latest failure on an account, given its failures in the window. */
function clientDelayMs(failures: number): number {
  if (failures < FREE_FAILURES_PER_CLIENT) return 0;
  return Math.min(2 ** (failures - FREE_FAILURES_PER_CLIENT) * 1000, THROTTLE_WINDOW_S * 1000);
}
/** An address the account signed in from within this many days is its owner's known client. */
const KNOWN_CLIENT_DAYS = 30;

/** Revocation reasons of a session whose family goes on in a new session. */
const ROTATED = 'rotated';
const REPLACED_BY_2FA = 'replaced after enabling 2FA';
const REPLACED = new Set([ROTATED, REPLACED_BY_2FA]);

/** Issue 20: ten one-time codes that stand in for a TOTP code at login, shown once when 2FA is switched on. */
const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without the look-alikes (i, l, o, 0, 1): 10 characters, about 50 bits. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as shown: `abcde-fghij`. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** The hash a recovery code is stored and looked up by: typed with or without its dash, in either case. */
function recoveryCodeHash(code: string): string {
  return hashToken(code.replace(/[\s-]/g, '').toLowerCase());
}

export type AuthContext = { ip: string; userAgent?: string };
export type AuthedUser = {
  id: string;
  email: string;
  role: 'user' | 'admin';
  sessionId: string;
  familyId: string;
};

export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    isAdmin: row.role === 'admin',
    useTwoFa: row.useTwoFa,
    accountStatus: row.accountStatus,
    displayName: row.displayName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  repo: AuthRepo;
  sealer: Sealer;
  mailer: Mailer;
  adminEmail: string | undefined;
  /**
   * Issue 20: while no admin exists, registering `adminEmail` needs this token (the operator's
   * KAIROS_ADMIN_SETUP_TOKEN, or one made at start and printed once: `chosen` false).
   */
  adminSetup?: { token: string; chosen: boolean };
  /** The base of every link in mail (never the request's Host). */
  publicUrl: string;
  /**
   * Issue 20: `open` (anyone registers) or `invite` (KAIROS_REGISTRATION=invite: only with an admin's invite
   * link, besides the first admin with the setup token); invites are taken and given back here.
   */
  registration: { mode: 'open' | 'invite'; invites: Pick<InvitesService, 'claim' | 'used' | 'release'> };
  /** Optional: skips the session query for recently seen tokens; revocations below drop entries at once. */
  cache?: SessionCache;
}) {
  const { sealer, cache } = deps;
  // Every revocation also drops the cached sessions it affects, before the call returns.
  const repo: AuthRepo = {
    ...deps.repo,
    async revokeSession(sessionId, reason) {
      await deps.repo.revokeSession(sessionId, reason);
      cache?.forgetSession(sessionId);
    },
    async revokeFamily(familyId, reason) {
      await deps.repo.revokeFamily(familyId, reason);
      cache?.forgetFamily(familyId);
    },
    async revokeUserSessions(userId, reason, keepFamilyId) {
      await deps.repo.revokeUserSessions(userId, reason, keepFamilyId);
      cache?.forgetUser(userId);
    },
  };

  /** A new sign-in (a new family), or the next session of `family` (it keeps the family's first sign-in). */
  async function issueSession(
    user: UserRow,
    ctx: AuthContext,
    family: { id: string; startedAt: Date } = { id: randomUUID(), startedAt: new Date() },
  ) {
    const apiToken = newToken('kat');
    const refreshToken = newToken('krt');
    const now = Date.now();
    const familyEnd = family.startedAt.getTime() + SESSION_FAMILY_TTL_MS;
    const expiresAt = new Date(Math.min(now + ACCESS_TOKEN_TTL_MS, familyEnd));
    await repo.insertSession({
      userId: user.id,
      familyId: family.id,
      familyStartedAt: family.startedAt,
      tokenHash: hashToken(apiToken),
      refreshHash: hashToken(refreshToken),
      expiresAt,
      refreshExpiresAt: new Date(Math.min(now + REFRESH_TOKEN_TTL_MS, familyEnd)),
      userAgent: ctx.userAgent?.slice(0, 300),
      ip: ctx.ip,
    });
    return { user: toUserDto(user), apiToken, refreshToken, expiresAt: expiresAt.toISOString() };
  }

  type ThrottleKeys = { ip: string; account?: string; accountClient?: string };

  /**
   * Failures are counted per client address, per account, and per account from that address (issue 20: an
   * account-wide count alone let anyone lock the owner out with ten wrong passwords from anywhere).
   */
  function throttleKeys(scope: string, ctx: AuthContext, email?: string): ThrottleKeys {
    return {
      ip: `${scope}:ip:${ctx.ip}`,
      ...(email
        ? { account: `${scope}:acct:${email}`, accountClient: `${scope}:acct:${email}:ip:${ctx.ip}` }
        : {}),
    };
  }

  const failedAttempts = (retryAfterSeconds: number) =>
    new TooManyRequestsError(retryAfterSeconds, ...apiError('RATE_LIMITED', { variant: 'failedAttempts' }));

  /**
   * Refuses a client past its limits: the address's and the account's counts in the window, and the
   * account-and-client pair's growing delay since its latest failure (a refused attempt adds nothing).
   * `knownClient` (asked only once the account-wide count is full): the account was signed in from this
   * address lately, so what strangers ran up does not hold it back — only its own failures do.
   */
  async function assertNotThrottled(keys: ThrottleKeys, knownClient?: () => Promise<boolean>) {
    const counted = [keys.ip, keys.account, keys.accountClient].filter(Boolean) as string[];
    const rows = await repo.throttleState(counted, THROTTLE_WINDOW_S);
    for (const row of rows) {
      if (row.key === keys.accountClient) {
        const wait = (row.lastFailureAt?.getTime() ?? 0) + clientDelayMs(row.failures) - Date.now();
        if (wait > 0) throw failedAttempts(wait / 1000);
        continue;
      }
      const limit = row.key === keys.ip ? MAX_FAILURES_PER_IP : MAX_FAILURES_PER_ACCOUNT;
      if (row.failures >= limit) {
        if (row.key === keys.account && knownClient && (await knownClient())) continue;
        throw failedAttempts((row.windowStartedAt.getTime() + THROTTLE_WINDOW_S * 1000 - Date.now()) / 1000);
      }
    }
  }

  async function recordFailure(keys: ThrottleKeys) {
    await repo.recordFailures(
      [keys.ip, keys.account, keys.accountClient].filter(Boolean) as string[],
      THROTTLE_WINDOW_S,
      new Date(),
    );
  }

  function assertStrongPassword(password: string) {
    if (isCommonPassword(password)) {
      throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'commonPassword' }));
    }
  }

  const PENDING = 'totp_pending_sealed';
  const IN_USE = 'totp_secret_sealed';
  /** The user's TOTP secret, pending (enrolment) or in use. */
  function totpSecret(user: UserRow, which: typeof PENDING | typeof IN_USE): string | null {
    const sealed = which === PENDING ? user.totpPendingSealed : user.totpSecretSealed;
    return sealed ? sealer.open(sealed, totpSecretAt(user.id, which)) : null;
  }

  /** Checks a TOTP code against the user's secret (pending or in use) and burns its time step. */
  async function checkTotp(
    user: UserRow,
    which: typeof PENDING | typeof IN_USE,
    code: string,
  ): Promise<boolean> {
    const secret = totpSecret(user, which);
    if (!secret) return false;
    const step = matchTotpStep(secret, user.email, code);
    if (step === null) return false;
    return repo.claimTotpStep(user.id, step);
  }

  /** Refuses a wrong current password (and counts it against `keys`). */
  async function assertCurrentPassword(user: UserRow, password: string, keys: ThrottleKeys) {
    if (!(await verifyPassword(user.passwordHash, password))) {
      await recordFailure(keys);
      throw new UnauthorizedError(...apiError('INVALID_CREDENTIALS', { variant: 'currentPassword' }));
    }
  }

  /** Uses one of the user's recovery codes; false when none matches. Every stored hash is compared in constant time. */
  async function useRecoveryCode(user: UserRow, code: string): Promise<boolean> {
    const typed = recoveryCodeHash(code);
    let match: string | undefined;
    for (const row of await repo.unusedRecoveryCodes(user.id)) {
      if (constantTimeEqual(row.codeHash, typed)) match = row.id;
    }
    return match !== undefined && repo.useRecoveryCode(match);
  }

  /** Tells the owner about a change of their account's 2FA (issue 20: every change is mailed). */
  async function mailTwoFaChange(user: UserRow, subject: string, what: string) {
    await deps.mailer.send({
      to: user.email,
      subject,
      text: `${what}\n\nIf it wasn't you, change your password now, then check Settings → Security: it lists every device signed in to your account and lets you end any of them.`,
    });
  }

  /** The signed-in user acting on their own account: the body's email must be theirs. */
  async function selfFromEmail(authed: AuthedUser, email: string): Promise<UserRow> {
    if (authed.email !== email)
      throw new ForbiddenError(...apiError('FORBIDDEN', { variant: 'ownAccountOnly' }));
    const user = await repo.findUserById(authed.id);
    if (!user) throw new UnauthorizedError(...apiError('UNAUTHORIZED'));
    return user;
  }

  /**
   * The admin seat: only the configured email, only while no admin exists, and only with the setup token
   * (refused without it, so nobody else can take that email as a plain user first). Nothing else makes an admin.
   */
  async function claimsAdminSeat(input: { email: string; setupToken?: string }): Promise<boolean> {
    if (!deps.adminEmail || input.email !== deps.adminEmail || !deps.adminSetup) return false;
    if (await repo.adminExists()) return false;
    if (!input.setupToken || !constantTimeEqual(input.setupToken, deps.adminSetup.token))
      throw new ForbiddenError(...apiError('SETUP_TOKEN_INVALID'));
    return true;
  }

  return {
    /** At start: while the admin seat is free, tells the operator (only) how to take it. */
    async announceAdminSetup(log: { warn(message: string): void }) {
      if (!deps.adminEmail || !deps.adminSetup || (await repo.adminExists())) return;
      log.warn(
        deps.adminSetup.chosen
          ? `Admin setup: register ${deps.adminEmail} with the setup token set in KAIROS_ADMIN_SETUP_TOKEN`
          : `Admin setup: register ${deps.adminEmail} with this one-time setup token: ${deps.adminSetup.token}`,
      );
    },

    /**
     * Issue 20: the answer is the same whether or not the address already has an account (no session either
     * way: the new user then logs in). A taken address keeps its account; its owner is mailed instead.
     */
    async register(input: { email: string; password: string; setupToken?: string; inviteToken?: string }) {
      const { mode, invites } = deps.registration;
      const admin = await claimsAdminSeat(input);
      // Closed registration says so before anything else (the first admin's seat stays open to its token).
      const needsInvite = mode === 'invite' && !admin;
      if (needsInvite && !input.inviteToken) throw new ForbiddenError(...apiError('REGISTRATION_CLOSED'));
      assertStrongPassword(input.password);
      // A working invite is used up (open too: the admin sees who came through it); when registration is open,
      // one that does not work stands in nobody's way.
      const inviteId = input.inviteToken && !admin ? await invites.claim(input.inviteToken) : undefined;
      if (needsInvite && !inviteId) throw new ForbiddenError(...apiError('INVITE_INVALID'));
      const user = await repo.insertUser({
        email: input.email,
        passwordHash: await hashPassword(input.password),
        role: admin ? 'admin' : 'user',
        preferences: DEFAULT_PREFERENCES,
      });
      if (user) {
        if (inviteId) await invites.used(inviteId, user);
        return;
      }
      // The address has an account: nothing was made, so the invite works again; the answer is the same.
      if (inviteId) await invites.release(inviteId);
      await deps.mailer.send({
        to: input.email,
        subject: 'Someone tried to register a Kairos account with your address',
        text: `Someone tried to create a Kairos account with this address, which already has one. Nothing was changed: your account and its password stay as they were.\n\nIf it was you, log in instead. Forgot your password? Ask for a new one here:\n${deps.publicUrl}/forgot-password\n\nIf it wasn't you, you can ignore this mail.`,
      });
    },

    async login(input: { email: string; password: string; code?: string }, ctx: AuthContext) {
      const keys = throttleKeys('login', ctx, input.email);
      await assertNotThrottled(keys, () => repo.signedInFrom(input.email, ctx.ip, KNOWN_CLIENT_DAYS));
      const user = await repo.findUserByEmail(input.email);
      if (!user) {
        await burnPasswordCheck(input.password);
        await recordFailure(keys);
        throw new UnauthorizedError(...apiError('INVALID_CREDENTIALS'));
      }
      if (!(await verifyPassword(user.passwordHash, input.password))) {
        await recordFailure(keys);
        throw new UnauthorizedError(...apiError('INVALID_CREDENTIALS'));
      }
      if (user.accountStatus !== 'active') {
        throw new ForbiddenError(...apiError('FORBIDDEN', { variant: 'suspended' }));
      }
      if (user.useTwoFa) {
        if (!input.code) return { requires2FA: true as const };
        const totp = /^\d{6}$/.test(input.code);
        const passed = totp
          ? await checkTotp(user, IN_USE, input.code)
          : await useRecoveryCode(user, input.code);
        if (!passed) {
          await recordFailure(keys);
          throw new UnauthorizedError(...apiError('INVALID_2FA_CODE'));
        }
        if (!totp) {
          const left = (await repo.unusedRecoveryCodes(user.id)).length;
          await mailTwoFaChange(
            user,
            'A recovery code was used to sign in to Kairos',
            `A recovery code was used instead of your authenticator's code to sign in to your Kairos account. Each code works once: ${left} of ${RECOVERY_CODE_COUNT} remain. To get ten new ones, turn two-factor authentication off and on again in Settings → Security.`,
          );
        }
      }
      await repo.clearFailures([keys.account, keys.accountClient].filter(Boolean) as string[]);
      return issueSession(user, ctx);
    },

    async logout(authed: AuthedUser) {
      await repo.revokeSession(authed.sessionId, 'logout');
    },

    /** Rotating refresh: a used token presented again means it was stolen, so the whole family dies. */
    async refresh(refreshToken: string, ctx: AuthContext) {
      const session = await repo.findSessionByRefresh(hashToken(refreshToken));
      if (!session) throw new UnauthorizedError(...apiError('INVALID_REFRESH_TOKEN'));
      if (session.rotatedAt || session.revokedAt) {
        await repo.revokeFamily(session.familyId, 'refresh token reuse');
        throw new UnauthorizedError(...apiError('REFRESH_REUSED'));
      }
      const familyEnd = session.familyStartedAt.getTime() + SESSION_FAMILY_TTL_MS;
      if (session.refreshExpiresAt.getTime() <= Date.now() || familyEnd <= Date.now()) {
        throw new UnauthorizedError(...apiError('REFRESH_EXPIRED'));
      }
      if (!(await repo.markRotated(session.id))) {
        await repo.revokeFamily(session.familyId, 'refresh token reuse');
        throw new UnauthorizedError(...apiError('REFRESH_REUSED'));
      }
      const user = await repo.findUserById(session.userId);
      if (!user || user.accountStatus !== 'active') throw new UnauthorizedError(...apiError('UNAUTHORIZED'));
      await repo.revokeSession(session.id, ROTATED);
      return issueSession(user, ctx, { id: session.familyId, startedAt: session.familyStartedAt });
    },

    /** Starts enrolment; needs the current password (issue 20: a stolen session alone cannot bind an authenticator). */
    async enableTwoFa(authed: AuthedUser, input: { email: string; password: string }, ctx: AuthContext) {
      const keys = throttleKeys('2fa', ctx, input.email);
      await assertNotThrottled(keys);
      const user = await selfFromEmail(authed, input.email);
      await assertCurrentPassword(user, input.password, keys);
      if (user.useTwoFa) throw new DomainRuleError(...apiError('TWO_FA_ENABLED'));
      const secret = newTotpSecret();
      await repo.updateUser(user.id, {
        totpPendingSealed: sealer.seal(secret, totpSecretAt(user.id, PENDING)),
      });
      return totpEnrolment(secret, user.email);
    },

    /**
     * Confirms enrolment with a first valid code; returns the user, a fresh token and the ten recovery codes
     * (shown this once). Every other sign-in of the user ends; the owner is mailed.
     */
    async verifyTwoFa(authed: AuthedUser, input: { email: string; code: string }, ctx: AuthContext) {
      const keys = throttleKeys('2fa', ctx, input.email);
      await assertNotThrottled(keys);
      const user = await selfFromEmail(authed, input.email);
      if (!user.totpPendingSealed) throw new DomainRuleError(...apiError('TWO_FA_NOT_STARTED'));
      if (!(await checkTotp(user, PENDING, input.code))) {
        await recordFailure(keys);
        throw new UnauthorizedError(...apiError('INVALID_2FA_CODE'));
      }
      const updated = await repo.updateUser(user.id, {
        useTwoFa: true,
        // Sealed again for the column it now lives in.
        totpSecretSealed: sealer.seal(totpSecret(user, PENDING)!, totpSecretAt(user.id, IN_USE)),
        totpPendingSealed: null,
      });
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await repo.replaceRecoveryCodes(user.id, recoveryCodes.map(recoveryCodeHash));
      await repo.revokeUserSessions(user.id, '2FA enabled', authed.familyId);
      const current = await repo.findSessionById(authed.sessionId);
      await repo.revokeSession(authed.sessionId, REPLACED_BY_2FA);
      const session = await issueSession(updated, ctx, {
        id: authed.familyId,
        startedAt: current?.familyStartedAt ?? new Date(),
      });
      await mailTwoFaChange(
        user,
        'Two-factor authentication was turned on for your Kairos account',
        'Two-factor authentication was turned on for your Kairos account: signing in now also asks for a code from your authenticator app (or one of the ten recovery codes shown when it was turned on). Every other device was signed out.',
      );
      return { ...session, recoveryCodes };
    },

    /** Needs a code and the current password; the recovery codes go with it, and the owner is mailed. */
    async disableTwoFa(
      authed: AuthedUser,
      input: { email: string; code: string; password: string },
      ctx: AuthContext,
    ) {
      const keys = throttleKeys('2fa', ctx, input.email);
      await assertNotThrottled(keys);
      const user = await selfFromEmail(authed, input.email);
      await assertCurrentPassword(user, input.password, keys);
      if (!user.useTwoFa) throw new DomainRuleError(...apiError('TWO_FA_DISABLED'));
      if (!(await checkTotp(user, IN_USE, input.code))) {
        await recordFailure(keys);
        throw new UnauthorizedError(...apiError('INVALID_2FA_CODE'));
      }
      const updated = await repo.updateUser(user.id, {
        useTwoFa: false,
        totpSecretSealed: null,
        totpPendingSealed: null,
      });
      await repo.replaceRecoveryCodes(user.id, []);
      await repo.revokeUserSessions(user.id, '2FA disabled', authed.familyId);
      await mailTwoFaChange(
        user,
        'Two-factor authentication was turned off for your Kairos account',
        'Two-factor authentication was turned off for your Kairos account: signing in asks only for the password again, and the recovery codes no longer work. Every other device was signed out.',
      );
      return toUserDto(updated);
    },

    /** Always the same answer, whether or not the email has an account. */
    async forgotPassword(email: string, ctx: AuthContext) {
      const keys = throttleKeys('forgot', ctx, email);
      await assertNotThrottled(keys, () => repo.signedInFrom(email, ctx.ip, KNOWN_CLIENT_DAYS));
      await recordFailure(keys); // every request counts: this endpoint sends mail
      const user = await repo.findUserByEmail(email);
      if (!user || user.accountStatus !== 'active') return;
      const token = newToken('krp');
      await repo.insertPasswordReset({
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const link = `${deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;
      await deps.mailer.send({
        to: email,
        subject: 'Reset your Kairos password',
        text: `Someone asked to reset the password of your Kairos account.\n\nOpen this link within an hour to choose a new password:\n${link}\n\nIf it wasn't you, ignore this mail: your password stays the same.`,
      });
    },

    /** Hardened: a reset token from the mail, or a signed-in session plus the current password. */
    async changePassword(
      input: { email: string; password: string; token?: string; currentPassword?: string },
      authed: AuthedUser | undefined,
      ctx: AuthContext,
    ) {
      assertStrongPassword(input.password);
      const keys = throttleKeys('change-pass', ctx, input.email);
      await assertNotThrottled(keys);
      if (input.token) {
        const user = await repo.findUserByEmail(input.email);
        if (!user || !(await repo.consumePasswordReset(hashToken(input.token), user.id))) {
          await recordFailure(keys);
          throw new UnauthorizedError(...apiError('INVALID_RESET_TOKEN'));
        }
        await repo.updateUser(user.id, { passwordHash: await hashPassword(input.password) });
        await repo.revokePasswordResets(user.id);
        await repo.revokeUserSessions(user.id, 'password reset');
        return;
      }
      if (!authed) throw new UnauthorizedError(...apiError('UNAUTHORIZED', { variant: 'signInOrReset' }));
      const user = await selfFromEmail(authed, input.email);
      if (!input.currentPassword || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        await recordFailure(keys);
        throw new UnauthorizedError(...apiError('INVALID_CREDENTIALS', { variant: 'currentPassword' }));
      }
      await repo.updateUser(user.id, { passwordHash: await hashPassword(input.password) });
      await repo.revokePasswordResets(user.id);
      await repo.revokeUserSessions(user.id, 'password changed', authed.familyId);
    },

    /** The user's live sign-ins, newest first; `current` is the caller's. */
    async listSessions(authed: AuthedUser): Promise<SessionInfo[]> {
      const rows = await repo.listLiveSessions(authed.id, new Date(Date.now() - SESSION_FAMILY_TTL_MS));
      return rows.map((row) => ({
        id: row.id,
        createdAt: row.familyStartedAt.toISOString(),
        lastUsedAt: row.createdAt.toISOString(),
        userAgent: row.userAgent,
        ip: row.ip,
        current: row.familyId === authed.familyId,
      }));
    },

    /** Ends a sign-in of the user's (the session's whole family); their own is a logout. */
    async revokeSessionOf(authed: AuthedUser, sessionId: string) {
      const session = await repo.findUnrevokedSession(sessionId, authed.id);
      if (!session) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'session' }));
      await repo.revokeFamily(session.familyId, session.familyId === authed.familyId ? 'logout' : 'revoked');
    },

    /**
     * A single-use ticket that opens one event stream within 30 s: EventSource cannot send headers, and the
     * access token must not travel in a URL (proxy and browser logs keep URLs).
     */
    async issueStreamTicket(authed: AuthedUser) {
      const ticket = newToken('ktk');
      const expiresAt = new Date(Date.now() + STREAM_TICKET_TTL_MS);
      await repo.insertStreamTicket({
        ticketHash: hashToken(ticket),
        sessionId: authed.sessionId,
        expiresAt,
      });
      return { ticket, expiresAt: expiresAt.toISOString() };
    },

    /** The user a stream ticket was issued to, once; undefined when unknown, used, expired or revoked. */
    async redeemStreamTicket(ticket: string): Promise<AuthedUser | undefined> {
      const found = await repo.redeemStreamTicket(hashToken(ticket));
      if (!found || found.user.accountStatus !== 'active') return undefined;
      return {
        id: found.user.id,
        email: found.user.email,
        role: found.user.role,
        sessionId: found.session.id,
        familyId: found.session.familyId,
      };
    },

    /**
     * A revoked session's family, and whether the sign-in goes on (the session was replaced by the next one
     * of its family: a refresh, 2FA switched on); undefined while it is live or unknown.
     */
    async sessionEnd(sessionId: string) {
      const row = await repo.findSessionById(sessionId);
      if (!row?.revokedAt) return undefined;
      return { familyId: row.familyId, continues: REPLACED.has(row.revokedReason ?? '') };
    },

    /** Resolves a bearer token to its user, or undefined. */
    async authenticate(token: string): Promise<AuthedUser | undefined> {
      const tokenHash = hashToken(token);
      const cached = cache?.get(tokenHash);
      if (cached) return cached;
      const found = await repo.findActiveSessionByToken(tokenHash);
      if (!found || found.user.accountStatus !== 'active') return undefined;
      const user: AuthedUser = {
        id: found.user.id,
        email: found.user.email,
        role: found.user.role,
        sessionId: found.session.id,
        familyId: found.session.familyId,
      };
      cache?.set(tokenHash, user, found.session.expiresAt);
      return user;
    },
  };
}
