-- Names now fold letters of another script that look like Latin ones as
-- the Latin letters (docs/tables.md, "Names"): the same as the SQLite
-- store's migration 009_refold_names.sql.

UPDATE ratings SET folded = '' WHERE NOT bot AND games > 0;
