-- Several servers on one database. Each running server has a row in
-- servers, renewed every second or so (heartbeat, PostgreSQL's clock, so
-- servers' clocks never disagree); a server whose heartbeat is older than
-- the lease is dead. A live table is run by the server named in its owner
-- column (NULL: by none, so any server may take it); epoch counts the
-- times it changed hands, and every write of a table's owner checks both,
-- so a server that lost a table can no longer write to it.
CREATE TABLE servers (
	id        text PRIMARY KEY,
	addr      text NOT NULL,        -- where the other servers reach it (HOST:PORT)
	started   timestamptz NOT NULL DEFAULT clock_timestamp(),
	heartbeat timestamptz NOT NULL DEFAULT clock_timestamp(),
	load      integer NOT NULL DEFAULT 0,        -- live tables it runs
	draining  boolean NOT NULL DEFAULT false,    -- stopping: takes no tables
	lobby     text NOT NULL DEFAULT '[]'         -- its tables as the lobby lists them (JSON)
);

ALTER TABLE live_tables ADD COLUMN owner text;
ALTER TABLE live_tables ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
CREATE INDEX live_tables_owner ON live_tables (owner);
