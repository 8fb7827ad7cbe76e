-- Rated names are unique among people, compared without regard to case
-- (docs/tables.md, "Names"): folded is the name's table.FoldName, set by
-- the store when it writes a person's rating ('' for bots). Rows written
-- before are given theirs when the database is opened.

ALTER TABLE ratings ADD COLUMN folded TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX ratings_folded ON ratings (folded) WHERE bot = 0 AND folded <> '';
