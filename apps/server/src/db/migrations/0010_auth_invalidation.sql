-- Cached sessions in every API process are dropped the moment a session is revoked or its
-- user's status, role or email changes (see modules/auth/session-cache.ts).
CREATE OR REPLACE FUNCTION kairos_notify_auth() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('kairos_auth', 'session:' || NEW.id::text);
  ELSE
    PERFORM pg_notify('kairos_auth', 'user:' || NEW.id::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sessions_revoked_notify AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION kairos_notify_auth();
--> statement-breakpoint
CREATE TRIGGER users_access_notify AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.account_status IS DISTINCT FROM NEW.account_status OR OLD.role IS DISTINCT FROM NEW.role
                     OR OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION kairos_notify_auth();
