CREATE TABLE "paper_stops" (
	"venue_order_id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "paper_stops_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" uuid NOT NULL,
	"client_order_id" text NOT NULL,
	"market_type" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"trigger_price" numeric(38, 18) NOT NULL,
	"status" text NOT NULL,
	"triggered_order_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"checked_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paper_stops" ADD CONSTRAINT "paper_stops_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "paper_stops_client_order_id_uq" ON "paper_stops" USING btree ("account_id","client_order_id");--> statement-breakpoint
CREATE INDEX "paper_stops_open_idx" ON "paper_stops" USING btree ("account_id","seq") WHERE status = 'open';