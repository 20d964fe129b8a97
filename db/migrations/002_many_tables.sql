-- Open-game lookups with literal statuses (so the partial indexes apply), lobbies by age,
-- hosting settings, clocks, bot seats and per-player preferences.
DROP INDEX games_guild_status;
CREATE INDEX games_open_guild ON games (guild_id, id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_lobby_age ON games (updated_at) WHERE status = 'lobby';

-- JSON: how the game is hosted (turn timer, bot level...), separate from the engine options.
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
-- JSON: the game's clocks: turn deadlines per player, a phase deadline, a bot's move, a nudge.
ALTER TABLE games ADD COLUMN clocks TEXT NOT NULL DEFAULT '{}';
-- The nearest of those clocks: the one timer loop sleeps until the smallest.
ALTER TABLE games ADD COLUMN wake_at REAL;
CREATE INDEX games_wake ON games (wake_at) WHERE wake_at IS NOT NULL;
-- Why a game stopped without a result: 'ended' (/endgame), 'abandoned', 'expired'.
ALTER TABLE games ADD COLUMN ended_reason TEXT;
ALTER TABLE games ADD COLUMN finished_at REAL;
ALTER TABLE games ADD COLUMN nudge_message_id INTEGER;

-- A seat is a human or a bot; a human's seat may be played by a bot while they are away.
ALTER TABLE seats ADD COLUMN human INTEGER NOT NULL DEFAULT 1;   -- a real member owns it
ALTER TABLE seats ADD COLUMN level TEXT;                        -- bot level while a bot plays
ALTER TABLE seats ADD COLUMN away TEXT;                         -- 'left', 'kicked', 'timeout'
ALTER TABLE seats ADD COLUMN strikes INTEGER NOT NULL DEFAULT 0; -- turns timed out in a row

CREATE TABLE players (
    user_id INTEGER PRIMARY KEY,
    nudges  INTEGER NOT NULL DEFAULT 1,   -- "your turn" pings wanted
    hidden  INTEGER NOT NULL DEFAULT 0    -- kept off leaderboards
);
