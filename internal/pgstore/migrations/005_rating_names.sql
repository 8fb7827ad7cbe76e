-- Rated names are unique among people, compared without regard to case
-- (docs/tables.md, "Names"): the same as the SQLite store's migration
-- 008_rating_names.sql.

ALTER TABLE ratings ADD COLUMN folded text NOT NULL DEFAULT '';
CREATE UNIQUE INDEX ratings_folded ON ratings (folded) WHERE NOT bot AND folded <> '';
