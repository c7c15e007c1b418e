-- The games still waiting for an invited player, by age: looked through every hour for
-- those whose invitation ran out.
CREATE INDEX games_unstarted ON games(created_at) WHERE result IS NULL AND started_at IS NULL;
