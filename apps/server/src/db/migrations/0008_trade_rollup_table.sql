CREATE TABLE "trade_pnl_hourly" (
	"user_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"trading_account_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"pnl" numeric(38, 18) NOT NULL,
	"notional" numeric(38, 18) NOT NULL,
	"trades" integer NOT NULL,
	"wins" integer NOT NULL,
	CONSTRAINT "trade_pnl_hourly_user_id_hour_trading_account_id_bot_id_pk" PRIMARY KEY("user_id","hour","trading_account_id","bot_id")
);
