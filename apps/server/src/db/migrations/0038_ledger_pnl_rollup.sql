CREATE TABLE "ledger_pnl_hourly" (
	"user_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"trading_account_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"pnl" numeric(38, 18) NOT NULL,
	CONSTRAINT "ledger_pnl_hourly_user_id_hour_trading_account_id_bot_id_pk" PRIMARY KEY("user_id","hour","trading_account_id","bot_id")
);
--> statement-breakpoint
CREATE INDEX "ledger_pnl_hourly_bot_hour_idx" ON "ledger_pnl_hourly" USING btree ("bot_id","hour");
--> statement-breakpoint
-- Keeps ledger_pnl_hourly equal to the ledger's booked PnL: the ledger only grows (a correction is a new
-- event), so each booked event adds its amount to its hour, in the same transaction.
CREATE OR REPLACE FUNCTION kairos_ledger_pnl_rollup() RETURNS trigger AS $$
BEGIN
  INSERT INTO ledger_pnl_hourly (user_id, hour, trading_account_id, bot_id, pnl)
  SELECT NEW.user_id, date_trunc('hour', NEW.effective_at),
         coalesce(t.trading_account_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(t.bot_id, '00000000-0000-0000-0000-000000000000'), NEW.amount
  FROM (SELECT NEW.trade_id AS id) e LEFT JOIN trades t ON t.id = e.id
  ON CONFLICT (user_id, hour, trading_account_id, bot_id) DO UPDATE SET pnl = ledger_pnl_hourly.pnl + excluded.pnl;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_events_pnl_rollup AFTER INSERT ON ledger_events FOR EACH ROW
  WHEN (NEW.kind IN ('realised_pnl', 'adjustment')) EXECUTE FUNCTION kairos_ledger_pnl_rollup();
--> statement-breakpoint
-- Rebuilds the rollup from the ledger (the backfill here; also after bulk loads that skip triggers).
CREATE OR REPLACE FUNCTION kairos_rebuild_ledger_pnl_rollup() RETURNS void AS $$
  DELETE FROM ledger_pnl_hourly;
  INSERT INTO ledger_pnl_hourly (user_id, hour, trading_account_id, bot_id, pnl)
  SELECT e.user_id, date_trunc('hour', e.effective_at),
         coalesce(t.trading_account_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(t.bot_id, '00000000-0000-0000-0000-000000000000'), sum(e.amount)
  FROM ledger_events e LEFT JOIN trades t ON t.id = e.trade_id
  WHERE e.kind IN ('realised_pnl', 'adjustment')
  GROUP BY 1, 2, 3, 4;
$$ LANGUAGE sql;
--> statement-breakpoint
SELECT kairos_rebuild_ledger_pnl_rollup();
