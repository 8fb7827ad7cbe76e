-- Players, append-only game logs, versions (issue 23).
--
-- Every row belongs to a player: the key the server derives from the
-- browser's identity cookie. Rows from before this migration get the empty
-- player, '' ("legacy"), which the first new browser adopts
-- (DB.AdoptLegacy, docs/api.md).
--
-- A game is its snapshot (games.save, a whole save text) plus the commands
-- accepted since, one row each in game_log: a move appends a row instead of
-- rewriting the game. games.version counts the writes, so that a write based
-- on an older state is refused.

ALTER TABLE games ADD COLUMN player TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN logn INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_player ON games (player);
CREATE INDEX games_updated ON games (updated);

CREATE TABLE game_log (
	game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq  INTEGER NOT NULL,
	cmd  TEXT NOT NULL,
	PRIMARY KEY (game, seq)
) WITHOUT ROWID;

CREATE TABLE saves2 (
	player  TEXT NOT NULL,
	name    TEXT NOT NULL,
	lineage TEXT NOT NULL,
	save    TEXT NOT NULL,
	variant TEXT NOT NULL,
	suits   INTEGER NOT NULL,
	deal    TEXT NOT NULL,
	moves   INTEGER NOT NULL,
	score   INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	PRIMARY KEY (player, name)
);
INSERT INTO saves2 (player, name, lineage, save, variant, suits, deal, moves, score, updated)
	SELECT '', name, lineage, save, variant, suits, deal, moves, score, updated FROM saves;
DROP TABLE saves;
ALTER TABLE saves2 RENAME TO saves;

ALTER TABLE results ADD COLUMN player TEXT NOT NULL DEFAULT '';
DROP INDEX results_group;
CREATE INDEX results_player ON results (player, at);

CREATE TABLE settings2 (
	player TEXT PRIMARY KEY,
	json   TEXT NOT NULL
);
INSERT INTO settings2 (player, json) SELECT '', json FROM settings;
DROP TABLE settings;
ALTER TABLE settings2 RENAME TO settings;
