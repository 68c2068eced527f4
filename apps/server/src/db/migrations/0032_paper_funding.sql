CREATE TABLE "paper_funding" (
	"account_id" uuid NOT NULL,
	"id" text NOT NULL,
	"symbol" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(38, 18) NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"position" numeric(38, 18) NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "paper_funding_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "paper_funding" ADD CONSTRAINT "paper_funding_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_funding_account_symbol_idx" ON "paper_funding" USING btree ("account_id","symbol","paid_at");