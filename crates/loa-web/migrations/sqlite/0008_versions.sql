-- A game's version, one more at each change: a server writes a change only over the
-- version it read, so two servers on one database never write over each other.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
