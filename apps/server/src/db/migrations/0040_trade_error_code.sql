ALTER TABLE "trades" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "error_params" jsonb;