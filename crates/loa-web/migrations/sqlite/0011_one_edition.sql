-- A championship has one edition not yet finished: servers sharing a database that each
-- make its next edition make it once.
CREATE UNIQUE INDEX tournaments_one_open_edition ON tournaments(championship)
    WHERE championship IS NOT NULL AND status <> 'finished';
