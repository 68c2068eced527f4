CREATE TABLE "alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_outcomes" (
	"alert_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"trade_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"retryable" boolean DEFAULT false NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_outcomes_alert_id_bot_id_pk" PRIMARY KEY("alert_id","bot_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"strategy_id" uuid NOT NULL,
	"strategy_key" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"action" text NOT NULL,
	"symbol" text NOT NULL,
	"price" numeric(38, 18),
	"signal_at" timestamp with time zone,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"dead_reason" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"trading_account_id" uuid NOT NULL,
	"strategy_id" uuid NOT NULL,
	"nickname" text DEFAULT 'Bot' NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"trade_currency" text NOT NULL,
	"stable_coin" text DEFAULT 'USDT' NOT NULL,
	"portfolio_percent" numeric(38, 18),
	"fixed_amount" numeric(38, 18),
	"leverage_percent" numeric(38, 18) DEFAULT '100' NOT NULL,
	"monthly_goal_percent" numeric(38, 18),
	"position" text DEFAULT 'out' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"trade_id" uuid NOT NULL,
	"venue_trade_id" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"fee_currency" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trade_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"trading_account_id" uuid NOT NULL,
	"client_order_id" text NOT NULL,
	"venue_order_id" text,
	"role" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"reduce_only" boolean DEFAULT false NOT NULL,
	"price" numeric(38, 18),
	"amount" numeric(38, 18) NOT NULL,
	"filled" numeric(38, 18) DEFAULT '0' NOT NULL,
	"average" numeric(38, 18),
	"status" text DEFAULT 'new' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"nickname" text NOT NULL,
	"strategy_key" text NOT NULL,
	"trade_currency" text NOT NULL,
	"stable_coin" text DEFAULT 'USDT' NOT NULL,
	"time_frame" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"take_profits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stop_loss_percent" numeric(38, 18),
	"break_even_after_tp1" boolean DEFAULT true NOT NULL,
	"max_lag_seconds" integer DEFAULT 300 NOT NULL,
	"webhook_secret_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "strategies_strategy_key_unique" UNIQUE("strategy_key")
);
--> statement-breakpoint
CREATE TABLE "trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bot_id" uuid,
	"trading_account_id" uuid NOT NULL,
	"strategy_id" uuid,
	"alert_id" uuid,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"quantity" numeric(38, 18) DEFAULT '0' NOT NULL,
	"entry_price" numeric(38, 18),
	"exit_price" numeric(38, 18),
	"realised_pnl" numeric(38, 18),
	"pnl_percent" numeric(38, 18),
	"commission" numeric(38, 18) DEFAULT '0' NOT NULL,
	"entry_notional" numeric(38, 18),
	"take_profits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stop_loss_percent" numeric(38, 18),
	"stop_loss_price" numeric(38, 18),
	"break_even_after_tp1" boolean DEFAULT true NOT NULL,
	"close_reason" text,
	"error" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trading_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"nickname" text NOT NULL,
	"exchange" text NOT NULL,
	"market_type" text DEFAULT 'spot' NOT NULL,
	"sandbox" boolean DEFAULT false NOT NULL,
	"api_key_sealed" text,
	"api_secret_sealed" text,
	"passphrase_sealed" text,
	"api_key_mask" text,
	"usdt_balance" numeric(38, 18) DEFAULT '0' NOT NULL,
	"balance_updated_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_outcomes" ADD CONSTRAINT "alert_outcomes_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_trading_account_id_trading_accounts_id_fk" FOREIGN KEY ("trading_account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fills" ADD CONSTRAINT "fills_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_trade_id_trades_id_fk" FOREIGN KEY ("trade_id") REFERENCES "public"."trades"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_trading_account_id_trading_accounts_id_fk" FOREIGN KEY ("trading_account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_events_alert_idx" ON "alert_events" USING btree ("alert_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_dedupe_uq" ON "alerts" USING btree ("strategy_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "alerts_claim_idx" ON "alerts" USING btree ("next_attempt_at") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "alerts_lease_idx" ON "alerts" USING btree ("locked_until") WHERE status = 'in_progress';--> statement-breakpoint
CREATE INDEX "alerts_received_idx" ON "alerts" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "alerts_status_received_idx" ON "alerts" USING btree ("status","received_at");--> statement-breakpoint
CREATE INDEX "bots_user_idx" ON "bots" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "bots_strategy_idx" ON "bots" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "bots_account_idx" ON "bots" USING btree ("trading_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fills_venue_trade_uq" ON "fills" USING btree ("order_id","venue_trade_id");--> statement-breakpoint
CREATE INDEX "fills_trade_idx" ON "fills" USING btree ("trade_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_client_order_id_uq" ON "orders" USING btree ("trading_account_id","client_order_id");--> statement-breakpoint
CREATE INDEX "orders_trade_idx" ON "orders" USING btree ("trade_id");--> statement-breakpoint
CREATE INDEX "orders_live_idx" ON "orders" USING btree ("trading_account_id") WHERE status IN ('submitted', 'open', 'partially_filled', 'unknown');--> statement-breakpoint
CREATE INDEX "strategies_owner_idx" ON "strategies" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "trades_user_opened_idx" ON "trades" USING btree ("user_id","opened_at");--> statement-breakpoint
CREATE INDEX "trades_bot_opened_idx" ON "trades" USING btree ("bot_id","opened_at");--> statement-breakpoint
CREATE INDEX "trades_account_idx" ON "trades" USING btree ("trading_account_id");--> statement-breakpoint
CREATE INDEX "trades_user_closed_idx" ON "trades" USING btree ("user_id","closed_at") WHERE status = 'closed';--> statement-breakpoint
CREATE UNIQUE INDEX "trades_one_open_per_bot_uq" ON "trades" USING btree ("bot_id") WHERE status IN ('open', 'closing') AND bot_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "trading_accounts_user_idx" ON "trading_accounts" USING btree ("user_id");