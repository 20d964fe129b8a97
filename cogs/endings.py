"""How games end on Discord: the end post (once), and catching up endings a crash cut short."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs import ids
from cogs.clock import now
from cogs.presenter import ENDED_UNSHOWN_WITHIN, THREAD_ARCHIVED, THREAD_LOCKED, post_nonce
from cogs.ratings import shown
from cogs.render.spec import MAX_CONTENT, Button, Screen
from cogs.render.text import shown_shortened
from cogs.replies import log_failure
from cogs.sessions import Session, forfeit_reason, forfeit_winners

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)


# Seconds one process has to post an end, and to store that it did, before another may post
# it: a minute to post, then the presenter's retries of a flag the database refused (5 to
# 30 s apart, 105 s in all), so that a database outage between the post and its flag is
# ridden out by the process that posted, instead of another posting the end again.
ANNOUNCE_LEASE = 180.0
CATCH_UP_EVERY = 30.0  # seconds between looks for ends a dead process claimed (shared)
CATCH_UP_ALONE = 120.0  # seconds between looks for what Discord refused for long (alone)
# An end post refused for want of permission (a channel its moderators locked) is tried again
# further and further apart (2, 4, 8... minutes, then hourly), and given up after this many
# refusals (about half a day): a lock is often lifted within minutes, a closed channel never.
END_REFUSALS_KEPT = 16


def end_post(session: Session) -> str | None:
    """The winner named once, how the game was won, and the scores ranked; in one message.

    Ten long names (escaped, up to 64 characters each) named in three lines can pass
    Discord's 2,000 characters: the names are then shortened in their middle, as shown,
    until it fits, rather than the post losing its last lines."""
    names = session.names
    text = _end_text(session, names)
    for keep in (28, 24, 20, 16, 12, 8):
        if text is None or len(text) <= MAX_CONTENT:
            break
        text = _end_text(session, _shortened(names, keep))
    return text


def _shortened(names: dict[str, str], keep: int) -> dict[str, str]:
    """Each name in ``keep`` characters as shown; names that would then read alike (the same
    decoration at both ends) are told apart by their seat's number."""
    short = {p: shown_shortened(n, keep) for p, n in names.items()}
    seen: dict[str, int] = {}
    for name in short.values():
        seen[name] = seen.get(name, 0) + 1
    return {
        p: f"{n} ({seat})" if seen[n] > 1 else n
        for seat, (p, n) in enumerate(short.items(), start=1)
    }


def _end_text(session: Session, names: dict[str, str]) -> str | None:
    game = session.game
    outcome = game.outcome if game is not None else None
    if outcome is None:
        return None
    # Members playing their own seat at the end: named with a mention. A seat a bot played
    # for an away member is named with its 🤖 (the stats give that member no win).
    members = {str(s.user_id) for s in session.seats if s.human and not s.is_bot}
    title = session.hosted.title
    how = session.hosted.renderer.how_won(session.view(None), names, outcome.reason)
    if outcome.winners:
        who = " and ".join(f"<@{w}>" if w in members else names[w] for w in outcome.winners)
        verb = "wins" if len(outcome.winners) == 1 else "win"
        head = f"🏆 {who} {verb} game #{session.id} ({title})"
    else:
        head = f"🤝 Game #{session.id} ({title}) ends in a draw"
    head += f" {how}." if how else "."
    ranked: list[str] = []
    for players in outcome.placings:
        place = len(ranked) + 1  # shared places: 1, 2, 2, 4
        ranked += [f"{place}. {names.get(p, p)} {outcome.scores.get(p, 0)}" for p in players]
    text = f"{head}\nFinal scores: {' · '.join(ranked)}"
    if game is not None and (forfeit := forfeit_winners(game, session.seats)):
        # A member left and nobody who stayed won: those who stayed win it in the stats.
        who = " and ".join(names.get(w, w) for w in forfeit)
        text += f"\n🏳️ {who} {'wins' if len(forfeit) == 1 else 'win'} by forfeit in the stats: "
        text += forfeit_reason(session.seats, outcome.winners)
    changes = []
    for user, (before, after) in session.row.ratings.items():
        if after is None:
            continue
        was, now_ = shown(before), shown(after)
        changes.append(f"{names.get(user, user)} {was} → {now_} ({now_ - was:+d})")
    if changes:
        text += f"\nRatings: {' · '.join(changes)}"
    return text


class ThreadLocked(Exception):
    """The game's thread is archived and locked by its moderators: nothing can be posted."""


class Endings(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self._catch_up: asyncio.Task[None] | None = None
        # Ends posted whose flag is not stored yet (storing it failed): a retry stores only
        # the flag, never a second post.
        self._posted: set[int] = set()
        # Finished games this process has drawn once while catching up: later passes only
        # try the post again, without redrawing the table and every DM each time.
        self._caught_up: set[int] = set()
        # Games Discord keeps refusing to show (a channel closed to the bot): game -> (looks
        # so far, the time of the next look), further and further apart.
        self._looks: dict[int, tuple[int, float]] = {}
        # The same for end posts refused (403): game -> (refusals so far, next try).
        self._refused: dict[int, tuple[int, float]] = {}

    async def cog_load(self) -> None:
        # REST works as soon as we are logged in: no need to wait for the gateway.
        self._catch_up = asyncio.create_task(self._catching_up(), name="catch-up")

    async def _catching_up(self) -> None:
        # At start, then now and then: what Discord refused for longer than the presenter's
        # retries (a long outage, a permission taken away and given back) is shown once it
        # works again; sharing the database, an end claimed by a process that died before
        # posting it is posted by another once the claim's lease is over.
        shared = self.bot.sessions.shared
        while True:
            if not shared:  # sharing, ``Timers.redraw_orphans`` does this
                await self.redraw_unshown()
            await self.catch_up()
            await asyncio.sleep(
                max(CATCH_UP_EVERY, self.bot.settings.clock_poll) if shared else CATCH_UP_ALONE
            )

    async def cog_unload(self) -> None:
        if self._catch_up is not None:
            self._catch_up.cancel()

    async def announce(self, session: Session) -> None:
        """Post how the game ended, once (the flag is stored after the post)."""
        if session.game is None or session.row.announced:
            return
        if session.id not in self._posted and not await self._post_end(session):
            return
        await self.bot.store.mark_announced(session.id)
        self._posted.discard(session.id)
        self._caught_up.discard(session.id)
        session.row.announced = True

    async def _post_end(self, session: Session) -> bool:
        """The end post itself; False if it is not this process's to post (or nothing to)."""
        assert session.game is not None
        # Sharing the database, posted by exactly one process: the one holding the claim.
        # (Alone, the flag stored after the post is enough: a crash in between posts again.)
        refused, due = self._refused.get(session.id, (0, 0.0))
        if now() < due:
            return False  # refused a moment ago: tried again later, not at every retry
        claim = None
        if self.bot.sessions.shared:
            claim = await self.bot.store.claim_announcement(session.id, ANNOUNCE_LEASE)
            if claim is None:
                return False
        stored = await self.bot.store.get_game(session.id)
        if stored is not None and stored.announced:
            # Posted meanwhile by an earlier job for this game (a catch-up pass loaded the
            # game before that job stored its flag): never a second post.
            session.row.announced = True
            return False
        if stored is not None:
            session.row.ratings = stored.ratings  # written by the finishing transaction
        text = end_post(session)
        if text is None:
            return False
        members = {s.user_id for s in session.seats if s.human and not s.is_bot}
        outcome = session.game.outcome
        assert outcome is not None
        ping = [int(w) for w in outcome.winners if int(w) in members]
        again = Screen(rows=[[Button("Play again", ids.again(session.id), "primary", emoji="🔁")]])
        try:
            await self._post(session, text, ping, again)
        except discord.Forbidden as error:
            refused += 1
            if refused < END_REFUSALS_KEPT:
                # Closed to the bot for now (a lock its moderators may lift): later.
                wait = min(CATCH_UP_ALONE * 2 ** (refused - 1), 3600.0)
                self._refused[session.id] = (refused, now() + wait)
                log.info("game %s: the end post was refused (%s); again later", session.id, error)
                if claim is not None:  # whichever process tries next may claim it
                    await self.bot.store.release_announcement(session.id, claim)
                return False
            log.warning("game %s: the end cannot be posted: %s", session.id, error)
        except (discord.NotFound, ThreadLocked) as error:
            # The channel is gone, or a thread its moderators locked: no retry will ever
            # post it.
            log.warning("game %s: the end cannot be posted: %s", session.id, error)
        except Exception:
            if claim is not None:  # the presenter retries this job: it may claim again
                await self.bot.store.release_announcement(session.id, claim)
            raise
        self._posted.add(session.id)
        self._refused.pop(session.id, None)
        return True

    async def _post(self, session: Session, text: str, ping: list[int], screen: Screen) -> None:
        """The end post; in a thread Discord archived meanwhile, unarchived first. Posted
        again after a crash before its flag was stored, Discord finds it by its nonce."""
        nonce = post_nonce("end", session.id)
        try:
            await self.bot.presenter.post(session, text, ping=ping, screen=screen, nonce=nonce)
        except discord.HTTPException as error:
            if error.code == THREAD_LOCKED:
                raise ThreadLocked(f"game {session.id}: its thread is locked") from error
            if error.code != THREAD_ARCHIVED:
                raise
            unarchived = await self.bot.presenter.unarchive(session)
            if unarchived is False:
                raise ThreadLocked(f"game {session.id}: its thread is locked") from error
            if unarchived is None:
                raise  # failed for now: the presenter retries this job
            await self.bot.presenter.post(session, text, ping=ping, screen=screen, nonce=nonce)

    async def redraw_unshown(self) -> None:
        """Alone on the database, at start: show the running games whose last change the
        previous run stored but never finished showing (it stopped in between), so no table
        or DM goes on showing a turn that is over; and the games that ended within the hour
        whose end was never shown, so none goes on offering buttons."""
        sessions = self.bot.sessions
        try:
            await self.bot.presenter.flush_drawn()  # what this run has shown is not looked at
            moment = now()
            looks: dict[int, tuple[int, float]] = {}
            for game_id in await self.bot.store.undrawn(moment - ENDED_UNSHOWN_WITHIN):
                count, due = looks[game_id] = self._looks.get(game_id, (0, moment))
                if moment < due:
                    continue
                # Still refused after a look: the next one comes twice as late (up to an
                # hour), and is tried once, not retried: a channel closed to the bot for good
                # costs a call now and then, not a stream of refusals (Discord bans a bot
                # that makes too many).
                looks[game_id] = (count + 1, moment + CATCH_UP_ALONE * 2 ** min(count, 5))
                async with sessions.lock(game_id):
                    session = await sessions.get(game_id)
                if session is not None and session.game is not None:
                    self.bot.presenter.update(session, once=count > 0)
            self._looks = looks  # games shown since are forgotten
        except Exception as error:
            log_failure("redrawing games a stop left unshown", error, self.bot)

    async def catch_up(self) -> None:
        """Finish what a crash interrupted: games that ended but whose end was never posted."""
        try:
            rows = await self.bot.store.unannounced()
            # Its table and DMs too, once, unless they show the end already: a table grown old
            # meanwhile would otherwise be posted again, a second table of a finished game.
            unshown = set(await self.bot.store.undrawn(ended_since=0.0)) if rows else set()
            for row in rows:
                session = await self.bot.sessions.get(row.id)
                if session is not None and session.game is not None:
                    first = row.id not in self._caught_up and row.id in unshown
                    self._caught_up.add(row.id)
                    self.bot.presenter.update(session, table=first, dms=first, jobs=[self.announce])
        except Exception as error:
            log_failure("catching up finished games", error, self.bot)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Endings(bot))
