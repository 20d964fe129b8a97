-- The lobbies a member opened lately (one member may open only so many in a while that never
-- start: each is a public post, and a /newgame and Cancel loop would fill a channel).
CREATE INDEX games_host_created ON games (host_id, created_at)
