CREATE TABLE "billed_events" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"record_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"trade_id" uuid,
	"kind" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"currency" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"booked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billed_events" ADD CONSTRAINT "billed_events_record_id_billing_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."billing_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_events_user_effective_idx" ON "ledger_events" USING btree ("user_id","effective_at");--> statement-breakpoint
-- The ledger is append-only: a correction is a new event, never an edit.
CREATE OR REPLACE FUNCTION kairos_ledger_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ledger_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER ledger_events_append_only BEFORE UPDATE OR DELETE ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION kairos_ledger_append_only();--> statement-breakpoint
CREATE TRIGGER ledger_events_no_truncate BEFORE TRUNCATE ON ledger_events
  FOR EACH STATEMENT EXECUTE FUNCTION kairos_ledger_append_only();--> statement-breakpoint
-- Every change of a trade's booked PnL (its realised PnL while closed, else nothing) is one ledger event.
CREATE OR REPLACE FUNCTION kairos_trade_ledger() RETURNS trigger AS $$
DECLARE
  before numeric := 0;
  after numeric := 0;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'closed' THEN before := coalesce(OLD.realised_pnl, 0); END IF;
  IF NEW.status = 'closed' THEN after := coalesce(NEW.realised_pnl, 0); END IF;
  IF after <> before THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, effective_at)
    VALUES (NEW.user_id, NEW.id, 'realised_pnl', after - before,
            split_part(split_part(NEW.symbol, '/', 2), ':', 1), coalesce(NEW.closed_at, now()));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER trades_ledger AFTER INSERT OR UPDATE OF status, realised_pnl ON trades
  FOR EACH ROW EXECUTE FUNCTION kairos_trade_ledger();--> statement-breakpoint
-- The trades closed before the ledger existed, booked at their close.
INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, effective_at, booked_at)
SELECT user_id, id, 'realised_pnl', realised_pnl, split_part(split_part(symbol, '/', 2), ':', 1), closed_at, closed_at
FROM trades WHERE status = 'closed' AND coalesce(realised_pnl, 0) <> 0 AND closed_at IS NOT NULL ORDER BY closed_at;
--> statement-breakpoint
-- What was billed already stays billed: a backfilled event belongs to its close month's record, if any.
INSERT INTO billed_events (event_id, record_id)
SELECT e.id, r.id FROM ledger_events e
JOIN billing_records r ON r.user_id = e.user_id
  AND r.year = extract(year FROM e.effective_at AT TIME ZONE 'UTC')::int
  AND r.month = extract(month FROM e.effective_at AT TIME ZONE 'UTC')::int;
