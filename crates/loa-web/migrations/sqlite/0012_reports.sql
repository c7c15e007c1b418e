-- Game reports: every move of a finished game judged by a background search. A row is
-- queued when the game ends (or when asked), claimed by one server's worker for a lease
-- (claimed_at), and holds the report as JSON once done, or why it could not be made.
CREATE TABLE reports (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    queued_at INTEGER NOT NULL,
    claimed_at INTEGER,
    server TEXT,
    searched INTEGER NOT NULL DEFAULT 0,
    positions INTEGER NOT NULL DEFAULT 0,
    done_at INTEGER,
    body TEXT,
    error TEXT
);
CREATE INDEX reports_waiting ON reports(done_at, queued_at);
