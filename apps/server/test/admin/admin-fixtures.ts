import type { TestApp } from '../support/app';
import { bearer, type Session } from '../support/users';

export const ADMIN_EMAIL = 'operator@example.com';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One API call as `who` (undefined: anonymous); the web client always sends JSON. */
export async function call(
  t: TestApp,
  who: Session | undefined,
  method: Method,
  url: string,
  payload?: unknown,
) {
  const res = await t.app.inject({
    method,
    url,
    headers: { accept: 'application/json', ...(who ? bearer(who.apiToken) : {}) },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
  // The body as parsed JSON: tests read it like the web client does.
  const body = res.json();
  return { status: res.statusCode, body };
}

export async function createStrategy(t: TestApp, owner: Session, body: Record<string, unknown> = {}) {
  const res = await call(t, owner, 'POST', '/api/strategies', {
    nickname: 'BTC swing',
    tradeCurrency: 'BTC',
    timeFrame: '1h',
    ...body,
  });
  if (res.status !== 201) throw new Error(`strategy: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results as { id: string; strategyKey: string; webhookSecret: string };
}

export async function auditRows(t: TestApp, action?: string) {
  const { rows } = await t.db.pool.query(
    `SELECT actor, actor_id, action, target, details, outcome, error FROM audit_log
     ${action ? 'WHERE action = $1' : ''} ORDER BY at, id`,
    action ? [action] : [],
  );
  return rows as {
    actor: string;
    actor_id: string | null;
    action: string;
    target: string;
    details: Record<string, unknown>;
    outcome: 'ok' | 'error';
    error: string | null;
  }[];
}

export async function count(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await t.db.pool.query(sql, params);
  return Number(rows[0].n);
}
