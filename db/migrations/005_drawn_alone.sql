-- A bot alone on its database (SQLite) now also stores which revision of each running game
-- it has shown in full (``drawn``), to redraw at start what a stop left unshown. The games
-- running when this migration runs were shown by the bot before it: they count as shown.
-- ``draw_owner`` is set on every game a process sharing the database ever drew: those keep
-- their own ``drawn``.
UPDATE games SET drawn = rev WHERE status = 'active' AND drawn < rev AND draw_owner IS NULL;
