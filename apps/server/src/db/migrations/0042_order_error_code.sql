ALTER TABLE "orders" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "last_error_params" jsonb;--> statement-breakpoint
ALTER TABLE "venue_stops" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "venue_stops" ADD COLUMN "last_error_params" jsonb;--> statement-breakpoint
UPDATE "orders" SET "last_error_code" = 'ORDER_LOST' WHERE "last_error" = 'The venue never received this order';--> statement-breakpoint
UPDATE "orders" SET "last_error_code" = 'ORDER_FORGOTTEN' WHERE "last_error" = 'The venue no longer knows this order';--> statement-breakpoint
UPDATE "venue_stops" SET "last_error_code" = 'STOP_LOST' WHERE "last_error" = 'The venue never received this stop';--> statement-breakpoint
UPDATE "venue_stops" SET "last_error_code" = 'STOP_GONE' WHERE "last_error" = 'The venue no longer has this stop';--> statement-breakpoint
UPDATE "venue_stops" SET "last_error_code" = 'STOP_NOT_FOUND_ONCE' WHERE "last_error" = 'The venue said it has no such stop (once)';