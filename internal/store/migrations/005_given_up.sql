-- Games given up for their analysis (issue 24, docs/analysis.md "The web
-- route"). The analysis shows the hidden cards, so:
--
-- games.gave_up: 1 once the game was given up (or, not won, analysed): it
-- takes no more commands, after a restart too.
-- results.gave_up: 1 once the lineage was given up while not won: its loss
-- is final, and a later win of the lineage (a game opened from one of its
-- named saves) does not replace it.
--
-- Rows from before this migration get 0: nothing was given up for good.

ALTER TABLE games ADD COLUMN gave_up INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN gave_up INTEGER NOT NULL DEFAULT 0;
