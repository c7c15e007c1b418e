-- The engine's move a game waits for, claimed by the one server that searches it (its
-- random id, until the lease runs out): servers sharing a database search each move once,
-- and another takes the search over when the lease of a stopped server has run out.
CREATE TABLE engine_jobs (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    ply BIGINT NOT NULL,
    server TEXT NOT NULL,
    lease_until BIGINT NOT NULL
);
