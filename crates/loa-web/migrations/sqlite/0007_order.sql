-- The order of lines said at the same millisecond and of rating changes at the same
-- time, kept in a column of its own (the same in every database) rather than in
-- SQLite's rowid.
ALTER TABLE chat ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE chat SET seq = rowid;
ALTER TABLE rating_history ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE rating_history SET seq = rowid;
