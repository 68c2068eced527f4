ALTER TABLE "trading_accounts" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "last_error_params" jsonb;