-- Tournaments: their players, and their rounds' boards (a game or a bye).
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    -- swiss, round-robin, arena or league.
    format TEXT NOT NULL,
    -- Swiss: its rounds; round robin and league: its cycles (2: double); arena: unused.
    rounds INTEGER NOT NULL,
    -- An arena's length.
    minutes INTEGER,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    -- JSON: the time control, as for games.
    clock TEXT NOT NULL,
    rated INTEGER NOT NULL,
    creator INTEGER NOT NULL REFERENCES accounts(id),
    -- open, running or finished.
    status TEXT NOT NULL,
    -- The round being played (0 before the start); a league's season.
    round INTEGER NOT NULL DEFAULT 0,
    starts_at INTEGER,
    started_at INTEGER,
    finished_at INTEGER,
    created_at INTEGER NOT NULL,
    -- The championship it is an edition of: its medals make titles.
    championship TEXT
);
CREATE INDEX tournaments_by_status ON tournaments(status, starts_at);
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    joined_at INTEGER NOT NULL,
    -- The rating at the start: it seeds the player.
    rating REAL NOT NULL DEFAULT 1500,
    active INTEGER NOT NULL DEFAULT 1,
    -- A league's division (1 the top).
    division INTEGER,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_by_account ON tournament_players(account_id);
CREATE TABLE tournament_boards (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    game_id TEXT REFERENCES games(id),
    -- Black, or the player of a bye.
    black INTEGER NOT NULL REFERENCES accounts(id),
    white INTEGER REFERENCES accounts(id),
    bye_points REAL,
    -- black, white or draw, once the game is over.
    result TEXT,
    forfeit INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_boards_by_game ON tournament_boards(game_id);
