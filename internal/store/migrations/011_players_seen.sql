-- When each player identity was last seen (Unix milliseconds), so that
-- what an identity whose cookie has lapsed left behind can be deleted:
-- its games, named saves, statistics, settings and rating (docs/api.md,
-- "Retention"): pruning forgets an identity unseen for the cookie's 400
-- days and a 2-day margin (spidergame.ForgetMargin). The server records
-- a request's identity at most once a day. Every identity that owns a
-- row today is given this migration's time, so an upgrade loses nothing:
-- the count starts now. The legacy
-- player ('') is no identity (its rows wait for a browser to adopt them)
-- and gets none; data of an identity with no row here is never pruned
-- for being unseen.

CREATE TABLE players (
	player TEXT PRIMARY KEY,
	seen   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX players_seen ON players (seen);

INSERT OR IGNORE INTO players (player, seen)
	SELECT player, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM (
		SELECT player FROM games UNION SELECT player FROM saves
		UNION SELECT player FROM results UNION SELECT player FROM settings
		UNION SELECT substr(entrant, 3) FROM ratings WHERE bot = 0 AND entrant LIKE 'p:%')
	WHERE player <> '';
