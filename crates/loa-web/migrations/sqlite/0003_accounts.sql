-- Accounts with their sessions and API tokens, ratings and their history, medals, seeks
-- and challenges; the seats and games that belong to accounts.
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    -- The name as compared: lower case.
    name_key TEXT NOT NULL UNIQUE,
    -- argon2id in PHC form; empty once the account is deleted.
    password_hash TEXT NOT NULL,
    email TEXT,
    bot INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    account_id INTEGER REFERENCES accounts(id),
    data TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_account ON sessions(account_id);
CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    label TEXT NOT NULL,
    -- SHA-256 of the token: the token itself is shown once and kept nowhere.
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    -- The variant and the speed: standard/blitz.
    category TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, category)
);
CREATE TABLE rating_history (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    category TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    at INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL
);
CREATE INDEX rating_history_by_account ON rating_history(account_id, category, at);
CREATE TABLE medals (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    event TEXT NOT NULL,
    -- 1 gold, 2 silver, 3 bronze.
    place INTEGER NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    account_id INTEGER REFERENCES accounts(id),
    -- The token of the seat the seek's maker will hold.
    token TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    time_control TEXT NOT NULL,
    rated INTEGER NOT NULL,
    color TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    -- The game made when it was taken (claimed before the game is written).
    game_id TEXT
);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_account INTEGER NOT NULL REFERENCES accounts(id),
    to_account INTEGER NOT NULL REFERENCES accounts(id),
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    time_control TEXT NOT NULL,
    rated INTEGER NOT NULL,
    color TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    -- open, accepted, declined, cancelled
    status TEXT NOT NULL,
    -- The game made when it was taken (claimed before the game is written).
    game_id TEXT
);
CREATE INDEX challenges_to ON challenges(to_account, status);
-- A seat's account acts there with its sessions and tokens.
ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES accounts(id);
-- Whose game it is: the accounts of Black and White (a site bot's for the engine).
ALTER TABLE games ADD COLUMN black_account INTEGER REFERENCES accounts(id);
ALTER TABLE games ADD COLUMN white_account INTEGER REFERENCES accounts(id);
CREATE INDEX games_by_black ON games(black_account, updated_at);
CREATE INDEX games_by_white ON games(white_account, updated_at);
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
-- The rating changes a rated game made, once it ended.
ALTER TABLE games ADD COLUMN black_change INTEGER;
ALTER TABLE games ADD COLUMN white_change INTEGER;
-- What the players of a game say to each other.
CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    at INTEGER NOT NULL,
    slot TEXT NOT NULL,
    name TEXT,
    text TEXT NOT NULL
);
CREATE INDEX chat_by_game ON chat(game_id, at);
