ALTER TABLE "trades" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "archived_at" timestamp with time zone;