ALTER TABLE "orders" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "last_error_params" jsonb;--> statement-breakpoint
ALTER TABLE "venue_stops" ADD COLUMN "last_error_code" text;--> statement-breakpoint
ALTER TABLE "venue_stops" ADD COLUMN "last_error_params" jsonb;--> statement-breakpoint
UPDATE "orders" SET "last_error_code" = CASE "last_error" WHEN 'The venue never received this order' THEN 'ORDER_LOST' ELSE 'ORDER_FORGOTTEN' END WHERE "last_error" IN ('The venue never received this order', 'The venue no longer knows this order');--> statement-breakpoint
UPDATE "venue_stops" SET "last_error_code" = CASE "last_error" WHEN 'The venue never received this stop' THEN 'STOP_LOST' WHEN 'The venue no longer has this stop' THEN 'STOP_GONE' ELSE 'STOP_NOT_FOUND_ONCE' END WHERE "last_error" IN ('The venue never received this stop', 'The venue no longer has this stop', 'The venue said it has no such stop (once)');