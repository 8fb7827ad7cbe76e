-- The settings' revision, as the SQLite store's migration
-- 012_settings_rev.sql: a write older than the one kept is not stored;
-- settings kept before revisions have revision 0, older than any write.
ALTER TABLE settings ADD COLUMN rev bigint NOT NULL DEFAULT 0;
