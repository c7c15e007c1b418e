-- Games, their seats and their moves.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    players TEXT NOT NULL,
    names TEXT NOT NULL,
    time_control TEXT,
    online BIGINT NOT NULL,
    started_at BIGINT,
    black_ms BIGINT,
    white_ms BIGINT,
    running_since BIGINT,
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
    joined BIGINT NOT NULL,
    PRIMARY KEY (game_id, slot)
);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    move TEXT NOT NULL,
    played_at BIGINT NOT NULL,
    black_ms BIGINT,
    white_ms BIGINT,
    PRIMARY KEY (game_id, ply)
);
