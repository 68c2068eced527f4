-- Live updates: a stop placed, resting, refused, triggered or cancelled on the venue changes where its trade's
-- stop lives (TradeDetail's protection, the dashboard's warning). Announced to the trade's owner as a change to
-- the trade's orders, on every new placement and every change of its state or venue order id.
CREATE OR REPLACE FUNCTION kairos_notify_venue_stop() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.status IS NOT DISTINCT FROM OLD.status
     AND NEW.venue_order_id IS NOT DISTINCT FROM OLD.venue_order_id THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('kairos_events', json_build_object(
    'u', (SELECT user_id FROM trades WHERE id = NEW.trade_id), 't', 'orders', 'id', NEW.id)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER venue_stops_notify AFTER INSERT OR UPDATE ON venue_stops FOR EACH ROW EXECUTE FUNCTION kairos_notify_venue_stop();
