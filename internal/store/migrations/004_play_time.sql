-- Active play time of Spider games (issue 24), in milliseconds: of a game in
-- play, of a named save (carried on when it is opened), and of the game a
-- result records. 0 is "not timed": rows from before this migration.

ALTER TABLE games ADD COLUMN played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE saves ADD COLUMN played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN played INTEGER NOT NULL DEFAULT 0;
