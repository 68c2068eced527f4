-- Keeps trade_pnl_hourly equal to the closed trades: every insert, update or delete of a trade
-- takes back its old contribution and adds its new one, in the same transaction.
CREATE OR REPLACE FUNCTION kairos_trade_rollup() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'closed' AND OLD.closed_at IS NOT NULL THEN
    IF TG_OP = 'UPDATE' AND NEW.status = 'closed'
       AND NEW.closed_at IS NOT DISTINCT FROM OLD.closed_at
       AND NEW.realised_pnl IS NOT DISTINCT FROM OLD.realised_pnl
       AND NEW.entry_notional IS NOT DISTINCT FROM OLD.entry_notional
       AND NEW.trading_account_id = OLD.trading_account_id
       AND NEW.bot_id IS NOT DISTINCT FROM OLD.bot_id THEN
      RETURN NULL; -- nothing the rollup sums has changed
    END IF;
    UPDATE trade_pnl_hourly SET
      pnl = pnl - coalesce(OLD.realised_pnl, 0),
      notional = notional - coalesce(OLD.entry_notional, 0),
      trades = trades - 1,
      wins = wins - CASE WHEN OLD.realised_pnl > 0 THEN 1 ELSE 0 END
    WHERE user_id = OLD.user_id AND hour = date_trunc('hour', OLD.closed_at)
      AND trading_account_id = OLD.trading_account_id
      AND bot_id = coalesce(OLD.bot_id, '00000000-0000-0000-0000-000000000000');
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'closed' AND NEW.closed_at IS NOT NULL THEN
    INSERT INTO trade_pnl_hourly (user_id, hour, trading_account_id, bot_id, pnl, notional, trades, wins)
    VALUES (NEW.user_id, date_trunc('hour', NEW.closed_at), NEW.trading_account_id,
            coalesce(NEW.bot_id, '00000000-0000-0000-0000-000000000000'),
            coalesce(NEW.realised_pnl, 0), coalesce(NEW.entry_notional, 0), 1,
            CASE WHEN NEW.realised_pnl > 0 THEN 1 ELSE 0 END)
    ON CONFLICT (user_id, hour, trading_account_id, bot_id) DO UPDATE SET
      pnl = trade_pnl_hourly.pnl + excluded.pnl,
      notional = trade_pnl_hourly.notional + excluded.notional,
      trades = trade_pnl_hourly.trades + 1,
      wins = trade_pnl_hourly.wins + excluded.wins;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER trades_rollup AFTER INSERT OR UPDATE OR DELETE ON trades FOR EACH ROW EXECUTE FUNCTION kairos_trade_rollup();
--> statement-breakpoint
-- Rebuilds the rollup from the trades (backfill here; also used after bulk loads that skip triggers).
CREATE OR REPLACE FUNCTION kairos_rebuild_trade_rollup() RETURNS void AS $$
  DELETE FROM trade_pnl_hourly;
  INSERT INTO trade_pnl_hourly (user_id, hour, trading_account_id, bot_id, pnl, notional, trades, wins)
  SELECT user_id, date_trunc('hour', closed_at), trading_account_id,
         coalesce(bot_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(sum(realised_pnl), 0), coalesce(sum(entry_notional), 0), count(*),
         count(*) FILTER (WHERE realised_pnl > 0)
  FROM trades WHERE status = 'closed' AND closed_at IS NOT NULL
  GROUP BY 1, 2, 3, 4;
$$ LANGUAGE sql;
--> statement-breakpoint
SELECT kairos_rebuild_trade_rollup();
