-- A link that resets a forgotten password: the SHA-256 of its secret, for one account and
-- the verified address it was mailed to. It works for an hour and once; a new password or
-- address makes it void (`used_at`).
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    email TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX password_resets_by_account ON password_resets(account_id);
CREATE INDEX password_resets_by_time ON password_resets(created_at);
-- Reset links asked for, by the client's network and by the address asked about (its
-- SHA-256), kept a day: one client, and one address, may ask only so often.
CREATE TABLE password_reset_requests (
    limit_key TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX password_reset_requests_by_key ON password_reset_requests(limit_key, at);
CREATE INDEX password_reset_requests_by_time ON password_reset_requests(at);
-- The accounts a verified address leads to, in any case.
CREATE INDEX accounts_by_verified_email ON accounts(LOWER(email))
    WHERE email_verified_at IS NOT NULL;
