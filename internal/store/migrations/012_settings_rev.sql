-- The settings' revision: the page numbers each change of its settings
-- (a time-ordered count), and a write older than the one kept is not
-- stored, so that a write held up on its way (aborted by a page as it
-- went, but already being stored) cannot undo a newer one. Settings kept
-- before revisions stay readable with revision 0: any write is newer.
ALTER TABLE settings ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
