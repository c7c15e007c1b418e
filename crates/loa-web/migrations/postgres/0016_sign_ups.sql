-- Accounts made, by the network of the client that made them (an IPv4 address or an
-- IPv6 /64), kept for a day: one client may make only so many.
CREATE TABLE sign_ups (
    network TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX sign_ups_by_network ON sign_ups(network, at);
CREATE INDEX sign_ups_by_time ON sign_ups(at);
