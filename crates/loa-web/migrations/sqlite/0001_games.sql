-- Games, their seats and their moves.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    players TEXT NOT NULL,
    names TEXT NOT NULL,
    time_control TEXT,
    online INTEGER NOT NULL,
    started_at INTEGER,
    black_ms INTEGER,
    white_ms INTEGER,
    running_since INTEGER,
    result TEXT,
    winner TEXT,
    reason TEXT,
    draw_offer TEXT,
    takeback_offer TEXT
);
CREATE INDEX games_by_update ON games(updated_at);
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    slot TEXT NOT NULL,
    token TEXT NOT NULL,
    joined INTEGER NOT NULL,
    PRIMARY KEY (game_id, slot)
);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    played_at INTEGER NOT NULL,
    black_ms INTEGER,
    white_ms INTEGER,
    PRIMARY KEY (game_id, ply)
);
