ALTER TABLE "ledger_events" ADD COLUMN "rate" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "ledger_events" ADD COLUMN "ref" uuid;--> statement-breakpoint
ALTER TABLE "ledger_events" ADD COLUMN "note" text;--> statement-breakpoint
-- Every money movement at the venue is a ledger event (issue 19), written as its row is stored: a fill's quote
-- leg (paid on a buy, received on a sell) and base leg (received on a buy, given on a sell, at the fill's price
-- as its rate), its fee (in its own currency, with the quote per unit it is counted at: the fill's price for
-- the base, the venue's price read with the fill for a third currency), and each funding payment. A fill that
-- changes or goes (an inferred fill replaced by the venue's) is taken back by the opposite events: append-only.
CREATE OR REPLACE FUNCTION kairos_fill_movements_of(sign numeric, rows_json jsonb) RETURNS void AS $$
  INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, rate, ref, effective_at)
  SELECT t.user_id, f.trade_id, m.kind, sign * m.amount, m.currency, m.rate, f.id, f.at
  FROM jsonb_populate_recordset(NULL::fills, rows_json) f
  JOIN trades t ON t.id = f.trade_id
  JOIN orders o ON o.id = f.order_id
  CROSS JOIN LATERAL (SELECT split_part(t.symbol, '/', 1) AS base,
                             split_part(split_part(t.symbol, '/', 2), ':', 1) AS quote) c
  CROSS JOIN LATERAL (VALUES
    (1, 'fill', CASE WHEN o.side = 'sell' THEN f.price * f.amount ELSE -(f.price * f.amount) END, c.quote, NULL::numeric),
    (2, 'fill', CASE WHEN o.side = 'buy' THEN f.amount ELSE -f.amount END, c.base, f.price),
    (3, 'fee', -f.fee, coalesce(f.fee_currency, c.quote),
       CASE coalesce(f.fee_currency, c.quote) WHEN c.quote THEN NULL WHEN c.base THEN f.price ELSE f.fee_rate END)
  ) AS m(leg, kind, amount, currency, rate)
  WHERE m.amount <> 0
  ORDER BY f.at, f.id, m.leg;
$$ LANGUAGE sql;--> statement-breakpoint
CREATE OR REPLACE FUNCTION kairos_fill_ledger() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM kairos_fill_movements_of(1, (SELECT jsonb_agg(to_jsonb(n)) FROM new_fills n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM kairos_fill_movements_of(-1, (SELECT jsonb_agg(to_jsonb(o)) FROM old_fills o));
  ELSE
    -- Only a change of what moved money: the old taken back, the new booked.
    PERFORM kairos_fill_movements_of(-1, (SELECT jsonb_agg(to_jsonb(o)) FROM old_fills o JOIN new_fills n USING (id)
      WHERE (o.price, o.amount, o.fee, o.fee_currency, o.fee_rate, o.at, o.trade_id, o.order_id)
        IS DISTINCT FROM (n.price, n.amount, n.fee, n.fee_currency, n.fee_rate, n.at, n.trade_id, n.order_id)));
    PERFORM kairos_fill_movements_of(1, (SELECT jsonb_agg(to_jsonb(n)) FROM old_fills o JOIN new_fills n USING (id)
      WHERE (o.price, o.amount, o.fee, o.fee_currency, o.fee_rate, o.at, o.trade_id, o.order_id)
        IS DISTINCT FROM (n.price, n.amount, n.fee, n.fee_currency, n.fee_rate, n.at, n.trade_id, n.order_id)));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER fills_ledger_insert AFTER INSERT ON fills REFERENCING NEW TABLE AS new_fills
  FOR EACH STATEMENT EXECUTE FUNCTION kairos_fill_ledger();--> statement-breakpoint
CREATE TRIGGER fills_ledger_update AFTER UPDATE ON fills REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills
  FOR EACH STATEMENT EXECUTE FUNCTION kairos_fill_ledger();--> statement-breakpoint
CREATE TRIGGER fills_ledger_delete AFTER DELETE ON fills REFERENCING OLD TABLE AS old_fills
  FOR EACH STATEMENT EXECUTE FUNCTION kairos_fill_ledger();--> statement-breakpoint
CREATE OR REPLACE FUNCTION kairos_funding_movements_of(sign numeric, rows_json jsonb) RETURNS void AS $$
  INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, ref, effective_at)
  SELECT t.user_id, p.trade_id, 'funding', sign * p.amount, p.currency, p.id, p.at
  FROM jsonb_populate_recordset(NULL::funding_payments, rows_json) p
  JOIN trades t ON t.id = p.trade_id
  WHERE p.amount <> 0
  ORDER BY p.at, p.id;
$$ LANGUAGE sql;--> statement-breakpoint
CREATE OR REPLACE FUNCTION kairos_funding_ledger() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM kairos_funding_movements_of(1, (SELECT jsonb_agg(to_jsonb(n)) FROM new_payments n));
  ELSE
    PERFORM kairos_funding_movements_of(-1, (SELECT jsonb_agg(to_jsonb(o)) FROM old_payments o));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER funding_payments_ledger_insert AFTER INSERT ON funding_payments
  REFERENCING NEW TABLE AS new_payments FOR EACH STATEMENT EXECUTE FUNCTION kairos_funding_ledger();--> statement-breakpoint
CREATE TRIGGER funding_payments_ledger_delete AFTER DELETE ON funding_payments
  REFERENCING OLD TABLE AS old_payments FOR EACH STATEMENT EXECUTE FUNCTION kairos_funding_ledger();--> statement-breakpoint
-- The movements stored before the ledger held them, booked when they happened.
INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, rate, ref, effective_at, booked_at)
SELECT e.user_id, e.trade_id, e.kind, e.amount, e.currency, e.rate, e.ref, e.effective_at, e.effective_at
FROM (
  SELECT t.user_id, f.trade_id, m.kind, m.amount, m.currency, m.rate, f.id AS ref, f.at AS effective_at, m.leg
  FROM fills f
  JOIN trades t ON t.id = f.trade_id
  JOIN orders o ON o.id = f.order_id
  CROSS JOIN LATERAL (SELECT split_part(t.symbol, '/', 1) AS base,
                             split_part(split_part(t.symbol, '/', 2), ':', 1) AS quote) c
  CROSS JOIN LATERAL (VALUES
    (1, 'fill', CASE WHEN o.side = 'sell' THEN f.price * f.amount ELSE -(f.price * f.amount) END, c.quote, NULL::numeric),
    (2, 'fill', CASE WHEN o.side = 'buy' THEN f.amount ELSE -f.amount END, c.base, f.price),
    (3, 'fee', -f.fee, coalesce(f.fee_currency, c.quote),
       CASE coalesce(f.fee_currency, c.quote) WHEN c.quote THEN NULL WHEN c.base THEN f.price ELSE f.fee_rate END)
  ) AS m(leg, kind, amount, currency, rate)
  WHERE m.amount <> 0
  UNION ALL
  SELECT t.user_id, p.trade_id, 'funding', p.amount, p.currency, NULL, p.id, p.at, 4
  FROM funding_payments p JOIN trades t ON t.id = p.trade_id
  WHERE p.amount <> 0
) e
ORDER BY e.effective_at, e.ref, e.leg;
