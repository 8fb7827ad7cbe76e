-- The chat of live Arlington tables, stored before anyone sees a line, so
-- that a table restarted (or taken over by another server) has its chat.
-- A table keeps its last lines only (the table package's ChatHistory):
-- writing a line deletes those that fell out. n numbers a table's lines
-- from 1; at is Unix milliseconds. A pruned table's chat goes with it.
-- live_tables.chat is the number of the table's last line: a line is
-- written only as the next (a conditional update of it), so a writer that
-- read an old count can never write a line again once it was deleted.

ALTER TABLE live_tables ADD COLUMN chat INTEGER NOT NULL DEFAULT 0;

CREATE TABLE live_table_chat (
	tbl  TEXT NOT NULL REFERENCES live_tables (id) ON DELETE CASCADE,
	n    INTEGER NOT NULL,
	seat INTEGER NOT NULL, -- -1: a spectator
	name TEXT NOT NULL,
	text TEXT NOT NULL,
	at   INTEGER NOT NULL,
	PRIMARY KEY (tbl, n)
) WITHOUT ROWID;
