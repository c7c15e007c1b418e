-- Whether a game is a tournament's: such a game is played or lost on time, never aborted
-- (nor called off when its player does not come).
ALTER TABLE games ADD COLUMN tournament_game BIGINT NOT NULL DEFAULT 0;
UPDATE games SET tournament_game = 1
    WHERE id IN (SELECT game_id FROM tournament_boards WHERE game_id IS NOT NULL);
