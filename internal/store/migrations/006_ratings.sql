-- Ratings of Arlington players (docs/tables.md, "Ratings").
--
-- One row for each person (entrant 'p:' and their identity) and each bot
-- level (entrant 'bot:' and the level) that finished a rated game: the
-- Weng-Lin belief about their skill (mu, sigma), the name last shown for
-- them, and how many rated games they finished. A rated game's end writes
-- its rows in the transaction that marks its table over.

CREATE TABLE ratings (
	entrant TEXT PRIMARY KEY,
	name    TEXT NOT NULL,
	bot     INTEGER NOT NULL,
	mu      REAL NOT NULL,
	sigma   REAL NOT NULL,
	games   INTEGER NOT NULL,
	updated INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ratings_ordinal ON ratings (mu - 3 * sigma);
