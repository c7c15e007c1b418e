-- The network (an IPv4 address or an IPv6 /64) of the client that made a seek without an
-- account, when known: one client may keep only so many of them open.
ALTER TABLE seeks ADD COLUMN network TEXT;
CREATE INDEX seeks_by_network ON seeks(network) WHERE network IS NOT NULL;
