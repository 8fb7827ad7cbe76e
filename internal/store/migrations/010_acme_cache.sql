-- The ACME certificate cache (serve --acme): the account key, the
-- certificates with their private keys, and the challenge answers that are
-- in flight, each under autocert's key. Kept in the database rather than
-- in a directory beside it, so that a backup or a db copy carries them
-- and there is one place for them (docs/hosting.md). updated is Unix
-- milliseconds: challenge rows left by a server that stopped mid-order
-- are deleted once a day old. The store bounds the rows and their size.

CREATE TABLE acme_cache (
	key     TEXT NOT NULL PRIMARY KEY,
	data    BLOB NOT NULL,
	updated INTEGER NOT NULL
) WITHOUT ROWID;
