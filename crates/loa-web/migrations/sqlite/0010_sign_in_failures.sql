-- Failed sign-ins by name, kept a minute: every server sharing the database counts the
-- same failures, so a name's limit holds whichever server is asked.
CREATE TABLE sign_in_failures (
    name_key TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_by_name ON sign_in_failures(name_key, at);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures(at);
