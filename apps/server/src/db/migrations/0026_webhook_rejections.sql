CREATE TABLE "webhook_rejections" (
	"minute" timestamp with time zone NOT NULL,
	"strategy_key" text NOT NULL,
	"reason" text NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_address" text,
	CONSTRAINT "webhook_rejections_minute_strategy_key_reason_pk" PRIMARY KEY("minute","strategy_key","reason")
);
--> statement-breakpoint
CREATE INDEX "webhook_rejections_last_idx" ON "webhook_rejections" USING btree ("last_at");