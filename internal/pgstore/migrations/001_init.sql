-- cardtable's schema in PostgreSQL: the same tables and columns as the
-- SQLite schema after its migrations (internal/store/migrations), in one
-- step. Times are Unix milliseconds; a deal number and a table's seed are
-- decimal text (a uint64 does not fit a bigint). Every row of the Spider
-- tables belongs to a player ('' for rows from before players existed).

CREATE TABLE games (
	id      text PRIMARY KEY,
	player  text NOT NULL DEFAULT '',
	lineage text NOT NULL,
	save    text NOT NULL,
	variant text NOT NULL,
	suits   integer NOT NULL,
	deal    text NOT NULL,
	moves   integer NOT NULL,
	score   integer NOT NULL,
	created bigint NOT NULL,
	updated bigint NOT NULL,
	version bigint NOT NULL DEFAULT 1,
	logn    bigint NOT NULL DEFAULT 0,
	played  bigint NOT NULL DEFAULT 0,
	gave_up boolean NOT NULL DEFAULT false
);
CREATE INDEX games_player ON games (player, lineage);
CREATE INDEX games_updated ON games (updated);

-- The commands accepted since a game's snapshot.
CREATE TABLE game_log (
	game text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq  bigint NOT NULL,
	cmd  text NOT NULL,
	PRIMARY KEY (game, seq)
);

CREATE TABLE saves (
	player  text NOT NULL,
	name    text NOT NULL,
	lineage text NOT NULL,
	save    text NOT NULL,
	variant text NOT NULL,
	suits   integer NOT NULL,
	deal    text NOT NULL,
	moves   integer NOT NULL,
	score   integer NOT NULL,
	updated bigint NOT NULL,
	played  bigint NOT NULL DEFAULT 0,
	PRIMARY KEY (player, name)
);

-- One entry per lineage. n is the order of insertion (SQLite's rowid),
-- which breaks ties of at in the statistics' history.
CREATE TABLE results (
	n       bigint GENERATED ALWAYS AS IDENTITY,
	lineage text PRIMARY KEY,
	player  text NOT NULL DEFAULT '',
	variant text NOT NULL,
	suits   integer NOT NULL,
	won     boolean NOT NULL,
	score   integer NOT NULL,
	at      bigint NOT NULL,
	played  bigint NOT NULL DEFAULT 0,
	gave_up boolean NOT NULL DEFAULT false
);
CREATE INDEX results_player ON results (player, at, n);

CREATE TABLE settings (
	player text PRIMARY KEY,
	json   text NOT NULL
);

-- Live Arlington tables and their moves. The primary key (tbl, seq) is
-- what refuses a second writer of a move across processes, besides the
-- conditional update of live_tables.moves. An owner column (which server
-- runs the table) can be added by a later migration.
CREATE TABLE live_tables (
	id      text PRIMARY KEY,
	creator text NOT NULL,
	config  text NOT NULL,
	seed    text NOT NULL,
	seats   text NOT NULL,
	status  text NOT NULL, -- open, over, closed
	moves   integer NOT NULL DEFAULT 0,
	created bigint NOT NULL,
	updated bigint NOT NULL
);
CREATE INDEX live_tables_status ON live_tables (status, updated);

CREATE TABLE live_table_moves (
	tbl    text NOT NULL REFERENCES live_tables (id) ON DELETE CASCADE,
	seq    integer NOT NULL,
	seat   integer NOT NULL,
	action text NOT NULL,
	PRIMARY KEY (tbl, seq)
);
