-- Mail: verified addresses and what each account wants sent, the outbox, the addresses
-- a reply plays a move through, and which your-move notices a player has not yet seen.
ALTER TABLE accounts ADD COLUMN email_verified_at INTEGER;
-- each (an e-mail when it is their move), digest (one a day) or off.
ALTER TABLE accounts ADD COLUMN notices TEXT NOT NULL DEFAULT 'each';
-- When the last daily digest went out.
ALTER TABLE accounts ADD COLUMN digest_at INTEGER;
-- The secret of the unsubscribe links, one per account; kept as it is (every e-mail
-- carries it), since it can only turn the notices off.
ALTER TABLE accounts ADD COLUMN unsubscribe_token TEXT;
CREATE UNIQUE INDEX accounts_by_unsubscribe ON accounts(unsubscribe_token);
-- A link that verifies an address: the SHA-256 of its secret, for one address.
CREATE TABLE email_verifications (
    token_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
-- Every e-mail the site sends, written before it is sent; sent by one worker, retried
-- with backoff, never twice.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    to_addr TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    reply_to TEXT,
    -- The link that unsubscribes, for the List-Unsubscribe header.
    unsubscribe TEXT,
    -- queued, sending, sent or failed.
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    sent_at INTEGER,
    error TEXT
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
-- A reply address: the SHA-256 of its secret, for one player's move in one game.
CREATE TABLE mail_moves (
    token_hash TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    -- The moves played when it was made: a reply plays the next one, or nothing.
    ply INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    used_at INTEGER
);
-- A player told by e-mail that it is their move, who has not looked at the game since:
-- they are not told again until they have. `reminded_ply` is the move whose 24-hour
-- reminder was sent.
CREATE TABLE mail_notices (
    game_id TEXT NOT NULL REFERENCES games(id),
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    unseen INTEGER NOT NULL DEFAULT 0,
    reminded_ply INTEGER,
    PRIMARY KEY (game_id, account_id)
);
