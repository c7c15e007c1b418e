-- Browsers a person has signed in from, by the SHA-256 of their device cookie: a wrong
-- password from one of them is counted for it alone, so that others' guesses at a name
-- never keep its owner out of their own browser.
CREATE TABLE devices (
    token_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    created_at BIGINT NOT NULL
);
CREATE INDEX devices_by_account ON devices(account_id);
