-- The time zone a user reads dates in (an IANA name, checked against the runtime's list when saved), kept with the
-- user so that it follows them to every device; null means the browser's own zone.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "time_zone" text;
