-- The ACME certificate cache (serve --acme): the account key, the
-- certificates with their private keys, and the challenge answers that are
-- in flight, each under autocert's key. Shared by every server of the
-- database, so that they use one account and one certificate, and a
-- challenge answer stored by the server that ordered a certificate is
-- served by whichever server the CA's request reaches (docs/scaling.md).
-- The same as the SQLite store's migration 010_acme_cache.sql. updated
-- is Unix milliseconds: challenge rows left by a server that stopped
-- mid-order are deleted once a day old. The store bounds the rows and
-- their size.

CREATE TABLE acme_cache (
	key     text COLLATE "C" NOT NULL PRIMARY KEY,
	data    bytea NOT NULL,
	updated bigint NOT NULL
);
