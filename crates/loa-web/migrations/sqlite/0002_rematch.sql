-- The game a finished one's rematch is.
ALTER TABLE games ADD COLUMN rematch TEXT;
