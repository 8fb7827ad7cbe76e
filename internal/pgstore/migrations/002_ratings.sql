-- Ratings of Arlington players (docs/tables.md, "Ratings"): the same table
-- as the SQLite store's migration 006_ratings.sql. One row for each person
-- (entrant 'p:' and their identity) and each bot level (entrant 'bot:' and
-- the level) that finished a rated game.

CREATE TABLE ratings (
	entrant text PRIMARY KEY,
	name    text NOT NULL,
	bot     boolean NOT NULL,
	mu      double precision NOT NULL,
	sigma   double precision NOT NULL,
	games   integer NOT NULL,
	updated bigint NOT NULL
);
CREATE INDEX ratings_ordinal ON ratings ((mu - 3 * sigma));
