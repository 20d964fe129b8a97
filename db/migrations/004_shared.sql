-- Several processes may share one database (PostgreSQL, a sharded bot). Each keeps the games
-- it serves in memory and, before trusting that copy, checks the game's revision: a counter
-- every change to a game or its seats bumps (a cheap per-click check).
ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
-- A process is posting the end of this finished game until then (unix time): a lease, so
-- two processes never post it twice, and another posts it if the first one died.
ALTER TABLE games ADD COLUMN announce_by REAL;
-- Drawing a game's table and DMs: one process at a time (two editing one message could
-- leave an older picture last). ``draw_owner`` holds or last held the drawing, until
-- ``draw_by`` (unix time, a lease); ``drawn`` is the revision last shown in full. A change
-- nobody finished showing (its process died) is redrawn by another. Used with a shared
-- database only.
ALTER TABLE games ADD COLUMN drawn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN draw_by REAL;
ALTER TABLE games ADD COLUMN draw_owner TEXT;
CREATE INDEX games_undrawn ON games (updated_at) WHERE status = 'active' AND drawn < rev;
