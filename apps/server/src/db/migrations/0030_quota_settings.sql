CREATE TABLE "quota_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"max_strategies" integer NOT NULL,
	"max_trading_accounts" integer NOT NULL,
	"max_bots" integer NOT NULL,
	"max_event_streams" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quota_settings_one_row" CHECK ("quota_settings"."id" = 1)
);
