-- The money movements of fills and funding payments (0035) written by row triggers: one cached plan each, no
-- transition table nor jsonb round trip (a fill stored alone, as the engine mostly stores them, cost about
-- three times the insert with the statement triggers). The legs of a fill are one inlined SQL function. Same
-- events as before.
CREATE OR REPLACE FUNCTION kairos_fill_legs(p_side text, p_symbol text, p_price numeric, p_amount numeric,
    p_fee numeric, p_fee_currency text, p_fee_rate numeric)
  RETURNS TABLE (leg int, kind text, amount numeric, currency text, rate numeric) AS $$
  SELECT m.leg, m.kind, m.amount, m.currency, m.rate
  FROM (SELECT split_part(p_symbol, '/', 1) AS base,
               split_part(split_part(p_symbol, '/', 2), ':', 1) AS quote) c
  CROSS JOIN LATERAL (VALUES
    (1, 'fill', CASE WHEN p_side = 'sell' THEN p_price * p_amount ELSE -(p_price * p_amount) END, c.quote, NULL::numeric),
    (2, 'fill', CASE WHEN p_side = 'buy' THEN p_amount ELSE -p_amount END, c.base, p_price),
    (3, 'fee', -p_fee, coalesce(p_fee_currency, c.quote),
       CASE coalesce(p_fee_currency, c.quote) WHEN c.quote THEN NULL WHEN c.base THEN p_price ELSE p_fee_rate END)
  ) AS m(leg, kind, amount, currency, rate)
  WHERE m.amount <> 0
$$ LANGUAGE sql IMMUTABLE;--> statement-breakpoint
CREATE OR REPLACE FUNCTION kairos_fill_ledger_row() RETURNS trigger AS $$
DECLARE
  changed boolean := TG_OP <> 'UPDATE'
    OR (OLD.price, OLD.amount, OLD.fee, OLD.fee_currency, OLD.fee_rate, OLD.at, OLD.trade_id, OLD.order_id)
       IS DISTINCT FROM (NEW.price, NEW.amount, NEW.fee, NEW.fee_currency, NEW.fee_rate, NEW.at, NEW.trade_id, NEW.order_id);
BEGIN
  IF NOT changed THEN RETURN NULL; END IF;
  -- A change of what moved money: the old taken back, the new booked.
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, rate, ref, effective_at)
    SELECT t.user_id, OLD.trade_id, m.kind, -m.amount, m.currency, m.rate, OLD.id, OLD.at
    FROM trades t JOIN orders o ON o.id = OLD.order_id
    CROSS JOIN LATERAL kairos_fill_legs(o.side, t.symbol, OLD.price, OLD.amount, OLD.fee, OLD.fee_currency,
        OLD.fee_rate) m
    WHERE t.id = OLD.trade_id ORDER BY m.leg;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, rate, ref, effective_at)
    SELECT t.user_id, NEW.trade_id, m.kind, m.amount, m.currency, m.rate, NEW.id, NEW.at
    FROM trades t JOIN orders o ON o.id = NEW.order_id
    CROSS JOIN LATERAL kairos_fill_legs(o.side, t.symbol, NEW.price, NEW.amount, NEW.fee, NEW.fee_currency,
        NEW.fee_rate) m
    WHERE t.id = NEW.trade_id ORDER BY m.leg;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
DROP TRIGGER IF EXISTS fills_ledger_insert ON fills;--> statement-breakpoint
DROP TRIGGER IF EXISTS fills_ledger_update ON fills;--> statement-breakpoint
DROP TRIGGER IF EXISTS fills_ledger_delete ON fills;--> statement-breakpoint
DROP FUNCTION IF EXISTS kairos_fill_ledger();--> statement-breakpoint
DROP FUNCTION IF EXISTS kairos_fill_movements_of(numeric, jsonb);--> statement-breakpoint
CREATE TRIGGER fills_ledger AFTER INSERT OR UPDATE OR DELETE ON fills
  FOR EACH ROW EXECUTE FUNCTION kairos_fill_ledger_row();--> statement-breakpoint
CREATE OR REPLACE FUNCTION kairos_funding_ledger_row() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.amount <> 0 THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, ref, effective_at)
    SELECT t.user_id, OLD.trade_id, 'funding', -OLD.amount, OLD.currency, OLD.id, OLD.at FROM trades t
    WHERE t.id = OLD.trade_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.amount <> 0 THEN
    INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, ref, effective_at)
    SELECT t.user_id, NEW.trade_id, 'funding', NEW.amount, NEW.currency, NEW.id, NEW.at FROM trades t
    WHERE t.id = NEW.trade_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
DROP TRIGGER IF EXISTS funding_payments_ledger_insert ON funding_payments;--> statement-breakpoint
DROP TRIGGER IF EXISTS funding_payments_ledger_delete ON funding_payments;--> statement-breakpoint
DROP FUNCTION IF EXISTS kairos_funding_ledger();--> statement-breakpoint
DROP FUNCTION IF EXISTS kairos_funding_movements_of(numeric, jsonb);--> statement-breakpoint
CREATE TRIGGER funding_payments_ledger AFTER INSERT OR UPDATE OF amount, currency, at, trade_id OR DELETE
  ON funding_payments FOR EACH ROW EXECUTE FUNCTION kairos_funding_ledger_row();
