-- The order of lines said at the same millisecond and of rating changes at the same
-- time (SQLite's databases took it from their rowid).
ALTER TABLE chat ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_history ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
