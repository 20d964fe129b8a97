-- Skill ratings and streaks per member, game and server, kept in the stats rows (one upsert
-- per seat in the finishing transaction); existing played/won counts are kept as they are.
ALTER TABLE stats ADD COLUMN streak INTEGER NOT NULL DEFAULT 0;      -- +n wins / -n losses in a row
ALTER TABLE stats ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
ALTER TABLE stats ADD COLUMN mu REAL;                               -- openskill rating, NULL until
ALTER TABLE stats ADD COLUMN sigma REAL;                            -- a rated game (2+ members)
ALTER TABLE stats ADD COLUMN ordinal REAL;                          -- mu - 3 sigma: ranked by this
ALTER TABLE stats ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;      -- rated games played
ALTER TABLE stats ADD COLUMN last_at REAL;
CREATE INDEX stats_rank ON stats (guild_id, kind, ordinal) WHERE rated > 0;
-- A server's history: announced finished games (an index unannounced ones never share, so
-- catching up endings at start keeps using games_unannounced).
CREATE INDEX games_history ON games (guild_id, finished_at)
    WHERE status = 'finished' AND announced = 1;
-- JSON: each member's rating before and after the game ({user: [before, after]}).
ALTER TABLE games ADD COLUMN ratings TEXT;
-- The few members hidden from leaderboards (left out of every ranking query).
CREATE INDEX players_hidden ON players (user_id) WHERE hidden = 1;
