-- The opening explorer: for each position of the first plies of the site's rated games
-- and of imported archives, the moves played from it with their games and results, by
-- the rating band of the game (the mean of the players' ratings; 0 unrated).
CREATE TABLE explorer_moves (
    variant TEXT NOT NULL,
    -- The first 8 bytes of SHA-256 of the position's text, as a signed integer.
    position_key INTEGER NOT NULL,
    -- 'rated' (the site's rated games) or 'archive' (records imported).
    source TEXT NOT NULL,
    band INTEGER NOT NULL,
    played TEXT NOT NULL,
    games INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    white_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    PRIMARY KEY (variant, position_key, source, band, played)
);
-- The site's games counted, each once whichever server counts it.
CREATE TABLE explorer_games (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    at INTEGER NOT NULL
);
-- Archives counted, by the SHA-256 of their text: the same file given again is not.
CREATE TABLE explorer_archives (
    digest TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    games INTEGER NOT NULL,
    at INTEGER NOT NULL
);
-- The worker looks up the ratings a game wrote.
CREATE INDEX rating_history_by_game ON rating_history(game_id);
