CREATE TABLE "venue_stops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trade_id" uuid NOT NULL,
	"trading_account_id" uuid NOT NULL,
	"client_order_id" text NOT NULL,
	"venue_order_id" text,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"trigger_price" numeric(38, 18) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"status" text NOT NULL,
	"triggered_order_id" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "venue_stops" ADD CONSTRAINT "venue_stops_trade_id_trades_id_fk" FOREIGN KEY ("trade_id") REFERENCES "public"."trades"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "venue_stops_client_order_id_uq" ON "venue_stops" USING btree ("trading_account_id","client_order_id");--> statement-breakpoint
CREATE INDEX "venue_stops_trade_idx" ON "venue_stops" USING btree ("trade_id");--> statement-breakpoint
CREATE INDEX "venue_stops_live_idx" ON "venue_stops" USING btree ("trading_account_id") WHERE status IN ('submitted', 'open', 'unknown');