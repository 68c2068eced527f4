-- A trade whose close time moves (a correction of when its money moved) takes its booked PnL back where it was
-- booked and books it again at the new time: two events, never an edit; otherwise one event of the difference.
CREATE OR REPLACE FUNCTION kairos_trade_ledger() RETURNS trigger AS $$
DECLARE
  before numeric := 0;
  after numeric := 0;
  currency text := split_part(split_part(NEW.symbol, '/', 2), ':', 1);
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'closed' THEN before := coalesce(OLD.realised_pnl, 0); END IF;
  IF NEW.status = 'closed' THEN after := coalesce(NEW.realised_pnl, 0); END IF;
  IF TG_OP = 'UPDATE' AND before <> 0 AND after <> 0 AND OLD.closed_at IS DISTINCT FROM NEW.closed_at THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, effective_at)
    VALUES (NEW.user_id, NEW.id, 'realised_pnl', -before, currency, coalesce(OLD.closed_at, now())),
           (NEW.user_id, NEW.id, 'realised_pnl', after, currency, coalesce(NEW.closed_at, now()));
  ELSIF after <> before THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, effective_at)
    VALUES (NEW.user_id, NEW.id, 'realised_pnl', after - before, currency, coalesce(NEW.closed_at, now()));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
DROP TRIGGER IF EXISTS trades_ledger ON trades;--> statement-breakpoint
CREATE TRIGGER trades_ledger AFTER INSERT OR UPDATE OF status, realised_pnl, closed_at ON trades
  FOR EACH ROW EXECUTE FUNCTION kairos_trade_ledger();
