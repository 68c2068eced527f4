CREATE TABLE "paper_balances" (
	"account_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"free" numeric(38, 18) NOT NULL,
	"used" numeric(38, 18) NOT NULL,
	CONSTRAINT "paper_balances_account_id_asset_pk" PRIMARY KEY("account_id","asset")
);
--> statement-breakpoint
CREATE TABLE "paper_fills" (
	"venue_trade_id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "paper_fills_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" uuid NOT NULL,
	"venue_order_id" text NOT NULL,
	"market_type" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"cost" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"fee_currency" text NOT NULL,
	"taker_or_maker" text NOT NULL,
	"realized_pnl" numeric(38, 18) NOT NULL,
	"executed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_orders" (
	"venue_order_id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "paper_orders_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" uuid NOT NULL,
	"client_order_id" text NOT NULL,
	"market_type" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"price" numeric(38, 18),
	"amount" numeric(38, 18) NOT NULL,
	"filled" numeric(38, 18) NOT NULL,
	"cost" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"fee_currency" text NOT NULL,
	"status" text NOT NULL,
	"reduce_only" boolean NOT NULL,
	"reserved_asset" text,
	"reserved" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"checked_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_positions" (
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"entry_price" numeric(38, 18) NOT NULL,
	"leverage" integer NOT NULL,
	"margin" numeric(38, 18) NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "paper_positions_account_id_symbol_pk" PRIMARY KEY("account_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "paper_balances" ADD CONSTRAINT "paper_balances_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_fills" ADD CONSTRAINT "paper_fills_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_fills" ADD CONSTRAINT "paper_fills_venue_order_id_paper_orders_venue_order_id_fk" FOREIGN KEY ("venue_order_id") REFERENCES "public"."paper_orders"("venue_order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD CONSTRAINT "paper_positions_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_fills_account_symbol_idx" ON "paper_fills" USING btree ("account_id","symbol","executed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_orders_client_order_id_uq" ON "paper_orders" USING btree ("account_id","client_order_id");--> statement-breakpoint
CREATE INDEX "paper_orders_open_idx" ON "paper_orders" USING btree ("account_id","seq") WHERE status in ('open', 'partially_filled');