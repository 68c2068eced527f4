import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accountKeyAt, type AccountKeyColumn } from '../../exchange/gateway-provider';
import type { SealedAt } from '../../lib/crypto';
import { totpSecretAt } from '../auth/auth-repo';
import { keptAnswerAt } from '../idempotency/idempotency-repo';
import { mailBodyAt } from '../mail/outbox-repo';
import { webhookSecretAt } from '../strategies/strategies-repo';

/** One v1 sealed value, where it lives, and how to write its v2 in place of it. */
export type LegacySealed = { sealed: string; at: SealedAt };

/**
 * Every column that holds bound (v2) sealed values, as SQL: its v1 values with their place, and the write
 * of a new value that applies only while the old one is still there (two processes starting at once).
 */
type Column = {
  select: ReturnType<typeof sql>;
  place: (row: Record<string, string>) => SealedAt;
  replace: (row: Record<string, string>, sealed: string) => ReturnType<typeof sql>;
};

/** An exchange key column of trading_accounts (its name is one of three constants, never input). */
const accountKeyColumn = (column: AccountKeyColumn): Column => ({
  select: sql`SELECT id::text, ${sql.identifier(column)} AS sealed FROM trading_accounts
              WHERE ${sql.identifier(column)} LIKE 'v1:%'`,
  place: (r) => accountKeyAt(r.id!, column),
  replace: (r, v) =>
    sql`UPDATE trading_accounts SET ${sql.identifier(column)} = ${v}
        WHERE id = ${r.id} AND ${sql.identifier(column)} = ${r.sealed}`,
});

const COLUMNS: Column[] = [
  accountKeyColumn('api_key_sealed'),
  accountKeyColumn('api_secret_sealed'),
  accountKeyColumn('passphrase_sealed'),
  {
    select: sql`SELECT id::text, webhook_secret_sealed AS sealed FROM strategies WHERE webhook_secret_sealed LIKE 'v1:%'`,
    place: (r) => webhookSecretAt(r.id!),
    replace: (r, v) =>
      sql`UPDATE strategies SET webhook_secret_sealed = ${v} WHERE id = ${r.id} AND webhook_secret_sealed = ${r.sealed}`,
  },
  {
    select: sql`SELECT id::text, totp_secret_sealed AS sealed FROM users WHERE totp_secret_sealed LIKE 'v1:%'`,
    place: (r) => totpSecretAt(r.id!, 'totp_secret_sealed'),
    replace: (r, v) =>
      sql`UPDATE users SET totp_secret_sealed = ${v} WHERE id = ${r.id} AND totp_secret_sealed = ${r.sealed}`,
  },
  {
    select: sql`SELECT id::text, totp_pending_sealed AS sealed FROM users WHERE totp_pending_sealed LIKE 'v1:%'`,
    place: (r) => totpSecretAt(r.id!, 'totp_pending_sealed'),
    replace: (r, v) =>
      sql`UPDATE users SET totp_pending_sealed = ${v} WHERE id = ${r.id} AND totp_pending_sealed = ${r.sealed}`,
  },
  {
    select: sql`SELECT id::text, body_sealed AS sealed FROM mail_outbox WHERE body_sealed LIKE 'v1:%'`,
    place: (r) => mailBodyAt(r.id!),
    replace: (r, v) =>
      sql`UPDATE mail_outbox SET body_sealed = ${v} WHERE id = ${r.id} AND body_sealed = ${r.sealed}`,
  },
  {
    select: sql`SELECT user_id::text, key, response->>'sealed' AS sealed FROM idempotency_keys
                WHERE response->>'sealed' LIKE 'v1:%'`,
    place: (r) => keptAnswerAt(r.user_id!, r.key!),
    replace: (r, v) =>
      sql`UPDATE idempotency_keys SET response = jsonb_set(response, '{sealed}', to_jsonb(${v}::text))
          WHERE user_id = ${r.user_id} AND key = ${r.key} AND response->>'sealed' = ${r.sealed}`,
  },
];

export type SecretsRepo = ReturnType<typeof createSecretsRepo>;

export function createSecretsRepo(db: Database) {
  return {
    /** Each column's v1 values, with a write that puts a new value in place of each. */
    async *legacy(): AsyncGenerator<LegacySealed & { replaceWith(sealed: string): Promise<boolean> }> {
      for (const column of COLUMNS) {
        const { rows } = await db.execute<Record<string, string>>(column.select);
        for (const row of rows) {
          yield {
            sealed: row.sealed!,
            at: column.place(row),
            async replaceWith(sealed) {
              return ((await db.execute(column.replace(row, sealed))).rowCount ?? 0) > 0;
            },
          };
        }
      }
    },
  };
}
