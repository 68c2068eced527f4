ALTER TABLE "alerts" ADD COLUMN "price_deviation_percent" numeric(20, 8);--> statement-breakpoint
ALTER TABLE "strategies" ADD COLUMN "price_tolerance_percent" numeric(10, 4) DEFAULT '2' NOT NULL;