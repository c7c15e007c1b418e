-- Vacations: days a year in which a correspondence player's clocks stand still.
ALTER TABLE accounts ADD COLUMN vacation_until INTEGER;
-- The year (UTC) whose vacation days are counted, and how many of them are taken.
ALTER TABLE accounts ADD COLUMN vacation_year INTEGER;
ALTER TABLE accounts ADD COLUMN vacation_days INTEGER NOT NULL DEFAULT 0;
