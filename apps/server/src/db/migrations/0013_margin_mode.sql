ALTER TABLE "bots" ADD COLUMN "margin_mode" text DEFAULT 'isolated' NOT NULL;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD COLUMN "margin_mode" text DEFAULT 'cross' NOT NULL;