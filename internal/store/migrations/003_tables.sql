-- Live Arlington tables (issue 21).
--
-- A table is its settings (config, JSON), its deal seed (decimal text: a
-- uint64; the server needs it to replay the table, and it is never sent
-- to a client before the game is over), its seats (JSON: who holds each)
-- and its moves, one row each, appended before a move is acknowledged. A
-- restart replays the moves of every open table from its seed.

CREATE TABLE live_tables (
	id      TEXT PRIMARY KEY,
	creator TEXT NOT NULL,
	config  TEXT NOT NULL,
	seed    TEXT NOT NULL,
	seats   TEXT NOT NULL,
	status  TEXT NOT NULL, -- open, over, closed
	moves   INTEGER NOT NULL DEFAULT 0,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL
);
CREATE INDEX live_tables_status ON live_tables (status, updated);

CREATE TABLE live_table_moves (
	tbl    TEXT NOT NULL REFERENCES live_tables (id) ON DELETE CASCADE,
	seq    INTEGER NOT NULL,
	seat   INTEGER NOT NULL,
	action TEXT NOT NULL,
	PRIMARY KEY (tbl, seq)
) WITHOUT ROWID;
