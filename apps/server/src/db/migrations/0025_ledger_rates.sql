CREATE TABLE "ledger_rates" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(38, 18) NOT NULL,
	"source" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER ledger_rates_append_only BEFORE UPDATE OR DELETE ON ledger_rates
  FOR EACH ROW EXECUTE FUNCTION kairos_ledger_append_only();
