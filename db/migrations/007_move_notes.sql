-- The lines the bot added to the table with a move (a member's turn timed out, their seat
-- handed to a bot), as JSON: {"before": [...], "after": [...]} the move's own events; NULL
-- for none. /replay shows them, so a timed-out member's move never reads as their own.
ALTER TABLE moves ADD COLUMN notes TEXT
