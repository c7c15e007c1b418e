-- Who blocked whom: a blocked player cannot challenge, or be paired with, the one who
-- blocked them.
CREATE TABLE blocks (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    blocked_id INTEGER NOT NULL REFERENCES accounts(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks(blocked_id);
