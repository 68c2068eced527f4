-- Live updates (GET /api/events): every change to a user's trades, orders, bots and accounts, and
-- every alert status change (for admins), is announced on one channel, whatever code path made it.
CREATE OR REPLACE FUNCTION kairos_notify_change() RETURNS trigger AS $$
DECLARE
  owner uuid;
BEGIN
  IF TG_TABLE_NAME = 'alerts' THEN
    IF TG_OP = 'UPDATE' AND NEW.status IS NOT DISTINCT FROM OLD.status THEN
      RETURN NULL;
    END IF;
    owner := NULL;
  ELSE
    owner := NEW.user_id;
  END IF;
  IF TG_TABLE_NAME = 'trades' THEN
    PERFORM pg_notify('kairos_events', json_build_object('u', owner, 't', TG_TABLE_NAME, 'id', NEW.id,
      'st', NEW.status, 'a', NEW.trading_account_id)::text);
  ELSE
    PERFORM pg_notify('kairos_events', json_build_object('u', owner, 't', TG_TABLE_NAME, 'id', NEW.id)::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER trades_notify AFTER INSERT OR UPDATE ON trades FOR EACH ROW EXECUTE FUNCTION kairos_notify_change();
--> statement-breakpoint
CREATE TRIGGER orders_notify AFTER INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION kairos_notify_change();
--> statement-breakpoint
CREATE TRIGGER bots_notify AFTER INSERT OR UPDATE ON bots FOR EACH ROW EXECUTE FUNCTION kairos_notify_change();
--> statement-breakpoint
CREATE TRIGGER trading_accounts_notify AFTER INSERT OR UPDATE ON trading_accounts FOR EACH ROW EXECUTE FUNCTION kairos_notify_change();
--> statement-breakpoint
CREATE TRIGGER alerts_notify AFTER INSERT OR UPDATE ON alerts FOR EACH ROW EXECUTE FUNCTION kairos_notify_change();
