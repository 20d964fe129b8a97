-- A game that ended (played out, or stopped: /endgame, time-outs, its channel gone) is
-- redrawn at start too when a stop left its end unshown: its table and DMs would go on
-- offering buttons for a game that is over. Only games that started (a lobby has no table
-- or DMs) and only recent ends are looked at (``Store.undrawn``). The games that ended
-- before this migration count as shown.
UPDATE games SET drawn = rev WHERE status IN ('finished', 'cancelled') AND drawn < rev;
CREATE INDEX games_undrawn_ended ON games (updated_at)
    WHERE status IN ('finished', 'cancelled') AND drawn < rev AND state IS NOT NULL;
