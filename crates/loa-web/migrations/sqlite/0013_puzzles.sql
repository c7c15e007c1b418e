-- Puzzles: positions from real games with a forced win the solver proved, as `loa puzzles
-- make` writes them, rated by Glicko-2 as players are. Each account's first try at a
-- puzzle rates both; a try again does not. One puzzle a day for everyone.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    -- The puzzle's line: 'variant ; rules ; position ; winning line'.
    body TEXT NOT NULL,
    variant TEXT NOT NULL,
    -- Space-separated with a space on each side, to be found with LIKE '% capture %'.
    themes TEXT NOT NULL,
    -- The winner's moves in the line.
    moves INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    -- Rated tries, and how many of them solved it.
    plays INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    added_at INTEGER NOT NULL
);
CREATE INDEX puzzles_by_rating ON puzzles(variant, rating);
CREATE TABLE puzzle_ratings (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    -- Puzzles tried (first tries) and solved.
    plays INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE puzzle_tries (
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    solved INTEGER NOT NULL,
    at INTEGER NOT NULL,
    -- The account's puzzle rating before and after the try.
    rating_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
CREATE TABLE daily_puzzles (
    -- The UTC day: 2026-11-27.
    day TEXT PRIMARY KEY,
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id)
);
CREATE INDEX daily_puzzles_by_puzzle ON daily_puzzles(puzzle_id);
