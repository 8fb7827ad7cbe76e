-- Games in play: the save text is the whole truth (spider.Load replays it);
-- the other columns are copies for listing. Times are Unix milliseconds.
CREATE TABLE games (
	id      TEXT PRIMARY KEY,
	lineage TEXT NOT NULL,
	save    TEXT NOT NULL,
	variant TEXT NOT NULL,
	suits   INTEGER NOT NULL,
	deal    TEXT NOT NULL,
	moves   INTEGER NOT NULL,
	score   INTEGER NOT NULL,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL
);

-- Named saved games.
CREATE TABLE saves (
	name    TEXT PRIMARY KEY,
	lineage TEXT NOT NULL,
	save    TEXT NOT NULL,
	variant TEXT NOT NULL,
	suits   INTEGER NOT NULL,
	deal    TEXT NOT NULL,
	moves   INTEGER NOT NULL,
	score   INTEGER NOT NULL,
	updated INTEGER NOT NULL
);

-- One statistics entry per game lineage (a game and the games opened from
-- its named saves): lost, or won, which overrides a loss.
CREATE TABLE results (
	lineage TEXT PRIMARY KEY,
	variant TEXT NOT NULL,
	suits   INTEGER NOT NULL,
	won     INTEGER NOT NULL,
	score   INTEGER NOT NULL,
	at      INTEGER NOT NULL
);
CREATE INDEX results_group ON results (variant, suits, at);

-- The page's settings: one JSON object, stored as sent.
CREATE TABLE settings (
	id   INTEGER PRIMARY KEY CHECK (id = 1),
	json TEXT NOT NULL
);
