-- Names now fold letters of another script that look like Latin ones as
-- the Latin letters (table.FoldName; docs/tables.md, "Names"): the folds
-- stored under the older fold are cleared, and given again, the people
-- with the most games first, when the database is opened.

UPDATE ratings SET folded = '' WHERE bot = 0 AND games > 0;
