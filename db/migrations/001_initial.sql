-- Games, seats, the append-only move log and per-user stats.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    kind             TEXT    NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    options          TEXT    NOT NULL DEFAULT '{}',   -- JSON: options chosen at /newgame
    seed             INTEGER NOT NULL,
    state            TEXT,                            -- JSON: engine to_dict(); NULL in the lobby
    version          INTEGER NOT NULL DEFAULT 0,      -- moves applied; buttons carry it
    log              TEXT    NOT NULL DEFAULT '{}',   -- JSON: recent public and private events
    table_message_id INTEGER,
    table_posted_at  REAL,
    deadline         REAL,                            -- timer deadline (unix time) or NULL
    announced        INTEGER NOT NULL DEFAULT 0,      -- the end was posted in the channel
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);

-- One open (lobby or active) game per channel.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_guild_status ON games (guild_id, status);
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_unannounced ON games (id) WHERE status = 'finished' AND announced = 0;

CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    seat          INTEGER NOT NULL,
    name          TEXT    NOT NULL DEFAULT '',   -- display name when they joined
    is_bot        INTEGER NOT NULL DEFAULT 0,
    dm_channel_id INTEGER,
    dm_message_id INTEGER,
    dm_closed     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,        -- the game's version after this move
    user_id    INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE stats (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    played   INTEGER NOT NULL DEFAULT 0,
    won      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, kind)
);
