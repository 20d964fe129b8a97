"""Playing: every click on a game button, "My hand" and /hand.

The click flow (ARCHITECTURE "One click, end to end"): under the game's lock, load it, refuse
stale versions and non-players, apply, store move + state in one transaction and answer the
click; then, after the lock, the presenter brings the table and the DMs up to date.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import components, ids, show
from cogs.clock import now
from cogs.presenter import Job, post_nonce
from cogs.render.text import humanize, member_name
from cogs.replies import in_guild, log_failure, reply
from cogs.sessions import Applied, Session
from db import StaleVersion
from engine import IllegalAction

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

STALE = "That button is out of date: the game has changed since. Here it is as it stands now."
STALE_TABLE = (
    "That button is out of date (the game has changed since), so nothing happened. "
    "Use the latest table message (or **My hand**)."
)
NOT_HERE = "That button doesn't belong to this game's messages."
RETRIES = 2  # a click judged again when another process moved the game at the same moment


STALE_JOB_KEPT = 2 * 3600.0  # seconds a stale table's redraw job is kept (past its retries)


class Play(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.sessions = bot.sessions
        self.presenter = bot.presenter
        # Ended games' tables pressed -> (when last redrawn, the one job redrawing it).
        self._stale_redrawn: dict[int, tuple[float, Job]] = {}

    async def cog_load(self) -> None:
        for prefix in ("g", "s", "k"):
            components.handle(prefix, self.on_act)
        components.handle("h", self.on_hand)

    # -- who may click what -----------------------------------------------------------------
    async def session_for(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[Session | None, str | None]:
        """The running game this member plays in, or why not."""
        session = await self.sessions.get(game_id)
        if session is None:
            return None, "I can't find that game any more."
        status = session.row.status
        if status == "lobby":
            return None, "That game hasn't started yet."
        if status == "cancelled":
            return None, "That game was ended early."
        if status == "finished" or session.game is None or session.game.finished:
            return None, "That game is over."
        seat = session.seat(interaction.user.id)
        if seat is None or not seat.human:
            return None, "You're not playing in this game. Start your own with `/newgame`!"
        if seat.away == "kicked":
            return None, "You were removed from this game."
        return session, None

    def origin(self, interaction: discord.Interaction, session: Session) -> str | None:
        """Where the click came from: table, dm, ephemeral, other; None if from a message
        that is not this game's (a button forged onto another message)."""
        message = interaction.message
        if message is None:
            return "other"
        if message.id == session.row.table_message_id:
            return "table"
        if message.flags.ephemeral:
            return "ephemeral"
        seat = session.seat(interaction.user.id)
        if interaction.guild_id is None:
            return "dm" if seat is not None and message.id == seat.dm_message_id else None
        # Another message in the game's channel (a table just posted, before its id is
        # stored): the click counts, answered privately. Anywhere else it is forged.
        return "other" if interaction.channel_id == session.row.channel_id else None

    # -- clicks ------------------------------------------------------------------------------
    async def on_act(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        if parsed.prefix == "s":
            target = values[0] if values else ids.ROOT
        elif parsed.prefix == "k":
            target = f"{parsed.rest}:{'.'.join(values)}"
        else:
            target = parsed.rest
        assert parsed.version is not None
        game_id, version = parsed.game, parsed.version
        refused: str | None = None  # answered once the lock is let go (clicks by outsiders)
        applied: Applied | None = None
        async with self.sessions.lock(game_id):
            for attempt in range(RETRIES + 1):
                session, problem = await self.session_for(interaction, game_id)
                if session is None:
                    refused = problem or "That game is not available."
                    break
                origin = self.origin(interaction, session)
                if origin is None:
                    refused = NOT_HERE
                    break
                await self._rename(interaction, session)
                try:
                    applied = await self._act(
                        interaction, session, origin, version, target, retry=attempt < RETRIES
                    )
                except StaleVersion:
                    # Another process stored a move first (the same moment, a simultaneous
                    # phase): judge the click again against the game as it is now.
                    continue
                break
        if refused is not None:
            # Not under the game's lock: a member mashing a game's buttons from outside it
            # never holds up its players' moves by a round trip to Discord each.
            await reply(interaction, refused)
            if session is None:
                await self._stale_buttons(interaction, game_id)
            return
        if applied is not None and session is not None:
            self.after_move(session, applied)
        elif session is not None and session.seat(interaction.user.id) is not None:
            self.bot.looked_at_moves(game_id, interaction.user.id)  # opened or stepped a picker

    async def _stale_buttons(self, interaction: discord.Interaction, game_id: int) -> None:
        """A button pressed on the table of a game that is over: the table should offer no
        moves any more (its last redraw never landed: the bot removed from the server and
        invited back since). Drawn again, as the game is now. (The DMs went out by DM,
        which a server's removal does not close.)"""
        message = interaction.message
        session = await self.sessions.get(game_id)  # an ended game is not kept in memory
        if session is None or session.row.is_open or session.game is None or message is None:
            return
        if message.id != session.row.table_message_id:
            return
        message_id = message.id
        # One redraw a minute per table, however many presses, and one job for it (the same
        # object, so a retry waiting with it takes it once): each press would be one more
        # edit of a message Discord may be failing to edit.
        moment = now()
        self._stale_redrawn = {
            k: v for k, v in self._stale_redrawn.items() if moment - v[0] < STALE_JOB_KEPT
        }
        held = self._stale_redrawn.get(message_id)
        if held is not None and moment - held[0] < 60:
            return
        job = held[1] if held is not None else self._redraw_ended_table(message_id)
        self._stale_redrawn[message_id] = (moment, job)
        self.presenter.update(session, table=False, dms=False, jobs=[job])

    def _redraw_ended_table(self, message_id: int) -> Job:
        async def redraw_ended_table(s: Session) -> None:
            # That message, in place: an ended game's table is never posted again, however
            # old (a repost would put the result at the bottom of the channel once more).
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await self.presenter.edit(s.row.channel_id, message_id, show.table(s))

        return redraw_ended_table

    async def _rename(self, interaction: discord.Interaction, session: Session) -> None:
        """A member who changed their nickname mid-game is shown under it from their next
        click in the server (a DM click carries their account's name, not the server's)."""
        if (name := self._new_name(interaction, session)) is not None:
            await self.sessions.rename(session, interaction.user.id, name)

    @staticmethod
    def _new_name(interaction: discord.Interaction, session: Session) -> str | None:
        """The name the clicking member's seat should now have, if not the one it has."""
        user = interaction.user
        seat = session.seat(user.id)
        if not isinstance(user, discord.Member) or seat is None or not seat.human:
            return None
        others = (s.name for s in session.seats if s.user_id != user.id)
        name = member_name(user.display_name, user.name, others)
        return name if name != seat.name else None

    async def _act(
        self,
        interaction: discord.Interaction,
        session: Session,
        origin: str,
        version: int,
        target: str,
        retry: bool = False,
    ) -> Applied | None:
        game = session.game
        assert game is not None
        user_id = interaction.user.id
        player = str(user_id)
        private = origin in ("dm", "ephemeral")
        # The Play button (the table's, and the DM's between turns) only opens the picker,
        # which shows the game as it is now: it works on a table whose edit is still on its
        # way (a 429, the REST budget), and on a DM drawn before the turn began.
        opens_picker = origin in ("table", "dm") and target == ids.ROOT
        stale = version != session.version and not session.unchanged_since(player, version)
        if stale and not opens_picker:
            if origin == "dm" and (self.sessions.shared or not show.acting(session, user_id)):
                # Drawn into the DM, the notice would outlive the turn it speaks of (a DM is
                # not redrawn when a turn begins), and sharing the database, the process
                # drawing the game would not know what the DM shows: answered privately,
                # the DM drawn again as the game is now.
                screen = show.hand(session, user_id, notice=STALE, leave=True)
                await components.answer_private(interaction, screen)
                session.shown.dms.pop(user_id, None)
                self.presenter.update(session, table=False)
            elif private:
                screen = show.hand(session, user_id, notice=STALE, dm=origin == "dm", leave=True)
                await components.answer_update(interaction, screen)
                if origin == "dm":
                    self.presenter.answered_dm(session, user_id)
            else:
                # A public button pressed again (Ready twice...) is better explained than
                # called stale, when the game can say why it is not open to this player.
                open_now = {a.id for a in game.legal_actions(player)}
                explained = None
                if target not in open_now and target != ids.ROOT:
                    explained = session.hosted.renderer.explain(
                        session.view(None), player, target, session.names
                    )
                await reply(interaction, explained or STALE_TABLE)
            return None

        seat = session.seat(user_id)
        if seat is not None and seat.is_bot:
            await reply(
                interaction,
                "A bot is playing your seat for now. Press **I'm back** (on the table or in "
                "your DM) to take it back.",
            )
            return None

        legal = game.legal_actions(player)
        exact = next((a for a in legal if a.id == target), None)
        opens_step = target == ids.ROOT or (exact is not None and exact.pick is not None)
        if exact is None and any(a.id.startswith(target + ":") for a in legal):
            opens_step = True
        if opens_step:
            if origin == "dm" and not show.acting(session, user_id):
                # The DM as it is says what to do; redrawn with a notice, that notice would
                # stay once the turn began (a DM is not redrawn then).
                await reply(interaction, not_yet(session))
                return None
            # Sharing the database, the DM's Play opens the moves privately: drawn into the
            # DM, they would stay there once the turn was over, the process drawing the game
            # not knowing the DM showed them (a DM is redrawn only when what it shows changes).
            in_place = origin == "ephemeral" or (
                origin == "dm" and not (self.sessions.shared and target == ids.ROOT)
            )
            for first in (True, False):
                dm = origin == "dm" and in_place
                screen = show.hand(session, user_id, prefix=target, dm=dm, leave=True)
                try:
                    if in_place:
                        await components.answer_update(interaction, screen)
                    else:
                        await components.answer_private(interaction, screen)
                    break
                except discord.HTTPException as error:
                    if not (first and self.bot.faces.refused(error)):
                        raise
                    # A face deleted in the Developer Portal: answered again, in text.
            if origin == "dm" and in_place:
                self.presenter.answered_dm(session, user_id)  # it shows moves now
            return None

        try:
            applied = await self.sessions.apply(session, user_id, target, now())
        except IllegalAction as error:
            await reply(interaction, refusal(session, player, target, str(error)))
            return None
        except StaleVersion:
            if retry and self.sessions.shared:
                raise
            await reply(interaction, STALE_TABLE)
            return None

        notice = private_notice(session, applied, player)
        for first in (True, False):
            try:
                await self._answer_move(interaction, session, origin, target, notice)
                break
            except discord.HTTPException as error:
                # The move is stored whatever happened to the answer (10062: the click
                # expired); the presenter still brings the table and the DMs up to date.
                log.info("game %s: answering a click failed: %s", session.id, error)
                if not (first and self.bot.faces.refused(error)):
                    break  # else a face was deleted: answered again, in text
        return applied

    async def _answer_move(
        self,
        interaction: discord.Interaction,
        session: Session,
        origin: str,
        target: str,
        notice: str | None,
    ) -> None:
        """The click that made a move is answered with what it changed."""
        user_id = interaction.user.id
        if origin == "table" and not self.presenter.table_is_old(session):
            await components.answer_update(interaction, show.table(session))
            self.presenter.answered_table(session)
        elif origin in ("dm", "ephemeral"):
            # A choice made in parts (a big UNO discard) stays on its menus until done.
            step = pick_again(session, str(user_id), target)
            screen = show.hand(session, user_id, step, notice=notice, dm=origin == "dm", leave=True)
            await components.answer_update(interaction, screen)
            if origin == "dm":
                self.presenter.answered_dm(session, user_id)
        else:
            await reply(interaction, notice or "Done.")

    def after_move(self, session: Session, applied: Applied) -> None:
        """Everything Discord shows after a stored move, done after the lock."""
        jobs: list[Job] = []
        game = session.game
        finished = game is not None and game.finished
        if applied.new_round or finished:
            # The round that ends the game gets its summary too (the hands that scored),
            # before the end post. Written now: a summary Discord holds up is posted as it
            # was, even after the next round ended too.
            summary = self.round_summary(session)
            if summary is not None:
                jobs.append(summary)
        if finished:
            endings = self.bot.get_cog("Endings")
            if endings is not None:
                jobs.append(endings.announce)  # type: ignore[attr-defined]
        # With no member left playing, the game is abandoned (``Sessions.abandon_if_empty``):
        # no seat to take back then, so none is promised.
        playing = any(s.human and not s.is_bot for s in session.seats)
        for change in applied.seat_changes:
            if change.away == "timeout":
                text = f"<@{change.user_id}> ran out of time three turns in a row, so a bot "
                text += (
                    "is playing your seat. Press **I'm back** on the table to take it back."
                    if playing
                    else "took your seat."
                )
                nonce = post_nonce("away", session.id, session.row.version, change.user_id)
                jobs.append(self._away_notice(text, change.user_id, nonce, playing))
        self.presenter.update(session, jobs=jobs)
        self.bot.wake_timers(session.row.wake_at, known=True)

    def _away_notice(self, text: str, user_id: int, nonce: str, playing: bool) -> Job:
        """A job posting ``text`` in the game's channel, pinging ``user_id``, whose seat a
        bot took: once (the same nonce on every try). One that offers the seat back is not
        posted once that is untrue (a post Discord held up while the member pressed **I'm
        back**, or the game ended)."""

        async def notice(session: Session) -> None:
            seat = session.seat(user_id)
            away = seat is not None and seat.away == "timeout"
            if playing and not (session.row.status == "active" and away):
                return
            await self.presenter.post(session, text, ping=[user_id], nonce=nonce)

        return notice

    def round_summary(self, session: Session) -> Job | None:
        """A job posting the round that just ended: who went out, the hands that scored,
        the scores (once, in the channel: the same nonce on every try)."""
        text = session.hosted.renderer.round_summary(session.view(None), session.names)
        if not text:
            return None
        nonce = post_nonce("round", session.id, session.row.version)

        async def post_round_summary(s: Session) -> None:
            await self.presenter.post(s, text, nonce=nonce)

        return post_round_summary

    async def on_hand(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        await self.show_hand(interaction, parsed.game)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        # Read-only: no lock, so a slow move elsewhere in the game never delays it.
        session, problem = await self.session_for(interaction, game_id)
        if session is None:
            await reply(interaction, problem or "That game is not available.")
            return
        screen = show.hand(session, interaction.user.id, leave=True)
        await components.answer_private(interaction, screen)
        if session.seat(interaction.user.id) is not None:
            self.bot.looked_at_moves(game_id, interaction.user.id)
        if session.row.status == "active":
            try:  # opened again, maybe
                await self.presenter.retry_dm(session, interaction.user.id)
            except Exception as error:
                log_failure(f"game {game_id}: trying a closed DM again", error, self.bot)
        if session.row.status == "active" and self._new_name(interaction, session):
            try:  # answered first: the rename waits for the game's lock, not the player
                async with self.sessions.lock(game_id):
                    current = await self.sessions.get(game_id)
                    if current is not None and current.row.status == "active":
                        await self._rename(interaction, current)
                        # No move follows to redraw it: the table shows the name now.
                        self.bot.presenter.update(current)
            except Exception as error:
                log_failure(f"game {game_id}: renaming a seat", error, self.bot)

    @app_commands.command(name="hand", description="See your hand in this channel's game.")
    @app_commands.guild_only()
    @in_guild()
    async def hand_command(self, interaction: discord.Interaction) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "There's no game in this channel.")
            return
        await self.show_hand(interaction, row.id)


GENERIC = ("It is not your turn.", "That move is not available right now.")


def pick_again(session: Session, player: str, target: str) -> str:
    """Where a private answer opens after a move: the same Pick when that choice is still
    open to the player (a part of it was made), else the top of their moves."""
    game = session.game
    if game is None or ":" not in target:
        return ids.ROOT
    action_id = target.split(":", 1)[0]
    again = any(a.id == action_id and a.pick for a in game.legal_actions(player))
    return action_id if again else ids.ROOT


def refusal(session: Session, player: str, action_id: str, engine_says: str) -> str:
    """The engine's reason when it is specific; else the game's own explanation of who may."""
    names = session.names
    if engine_says in GENERIC:
        explained = session.hosted.renderer.explain(session.view(None), player, action_id, names)
        if explained:
            return explained
    return humanize(engine_says, names)


def not_yet(session: Session) -> str:
    """The answer to a DM's Play pressed while its owner has no move to make."""
    awaited = show.waiting(session)
    if not awaited:
        return "Nothing for you to do right now."
    return f"It's not your turn yet: the game is waiting for {', '.join(awaited)}."


def private_notice(session: Session, applied: Applied, player: str) -> str | None:
    texts = [e.private[player] for e in applied.events if player in e.private]
    return humanize(" ".join(texts), session.names) if texts else None


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Play(bot))
