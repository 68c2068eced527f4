ALTER TABLE "fills" ADD COLUMN "inferred" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "fills_inferred_idx" ON "fills" USING btree ("order_id") WHERE "fills"."inferred";