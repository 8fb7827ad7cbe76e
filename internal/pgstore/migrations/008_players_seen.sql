-- When each player identity was last seen (Unix milliseconds), so that
-- what an identity whose cookie has lapsed left behind can be deleted:
-- pruning forgets an identity unseen for the cookie's 400 days and a
-- 2-day margin (spidergame.ForgetMargin), both read on the database's
-- clock (now()), so that servers' clocks need not agree.
-- The same as the SQLite store's migration 011_players_seen.sql: every
-- identity that owns a row today is given this migration's time, so an
-- upgrade loses nothing; the legacy player ('') gets none.

CREATE TABLE players (
	player text NOT NULL PRIMARY KEY,
	seen   bigint NOT NULL
);
CREATE INDEX players_seen ON players (seen);

INSERT INTO players (player, seen)
	SELECT player, (extract(epoch FROM now()) * 1000)::bigint FROM (
		SELECT player FROM games UNION SELECT player FROM saves
		UNION SELECT player FROM results UNION SELECT player FROM settings
		UNION SELECT substr(entrant, 3) FROM ratings WHERE bot = false AND entrant LIKE 'p:%') AS p
	WHERE player <> ''
	ON CONFLICT DO NOTHING;
