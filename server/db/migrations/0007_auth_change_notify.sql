-- Every change to who may use a session is announced on the auth_change channel, in the writing transaction (delivered
-- at commit), whatever code or process made it: instances forget their cached session checks for that user
-- (server/db/auth-changes.ts, server/http/plugins/session-cache.ts). NOTIFY drops identical payloads within a
-- transaction, so revoking all of a user's sessions sends one notice.
CREATE OR REPLACE FUNCTION "notify_session_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_change', OLD."user_id"::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_auth_change" AFTER UPDATE OF "revoked_at", "expires_at", "user_id" OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_session_change"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "notify_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD."role" IS DISTINCT FROM NEW."role" OR OLD."is_active" IS DISTINCT FROM NEW."is_active" THEN
    PERFORM pg_notify('auth_change', OLD."id"::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_auth_change" AFTER UPDATE OF "role", "is_active" OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_change"();
