ALTER TABLE "trading_accounts" ADD COLUMN "withdraw_risk_acknowledged_at" timestamp with time zone;--> statement-breakpoint
-- Acknowledgements made before this column (kept in the audit log only) move onto the account while it keeps that key.
UPDATE "trading_accounts" AS a SET "withdraw_risk_acknowledged_at" = l.at
FROM (
  SELECT target, details->>'apiKeyMask' AS mask, max(at) AS at FROM "audit_log"
  WHERE action = 'account.withdraw_risk_acknowledged' AND outcome = 'ok'
  GROUP BY target, details->>'apiKeyMask'
) AS l
WHERE l.target = 'account:' || a.id::text AND l.mask IS NOT DISTINCT FROM a.api_key_mask;
