-- DM hands drawn before this version were redrawn whenever their owner's turn began: one
-- drawn between turns has no Play button and says "Nothing for you to do right now". The bot
-- no longer redraws a DM when a turn begins, so the games running at the upgrade draw their
-- DMs anew once, at their next change, instead of taking them as shown (``old_dms``).
ALTER TABLE games ADD COLUMN old_dms INTEGER NOT NULL DEFAULT 0;
UPDATE games SET old_dms = 1 WHERE status = 'active'
