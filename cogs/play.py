"""Playing: every click on a game button, "My hand", the table and the DM hands.

The click flow (ARCHITECTURE "One click, end to end"): take the game's lock, load it, refuse
stale versions and non-players, apply, store move + state in one transaction, then answer
Discord, then update the table and only the DMs that changed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import components, ids
from cogs.clock import now
from cogs.render.registry import renderer_for
from cogs.render.screens import hand_screen, table_screen
from cogs.render.spec import Screen
from cogs.render.text import humanize
from cogs.sessions import Session, Sessions
from db import StaleVersion
from engine import Event, IllegalAction

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

TABLE_MAX_AGE = 50 * 60  # edits to messages over an hour old are rate-limited (30046)
DM_CLOSED = 50007

STALE = "That button is from an earlier turn. Here is the game as it stands now."
STALE_TABLE = (
    "That button is from an earlier turn, so nothing happened. "
    "Use the latest table message (or **My hand**)."
)


class Play(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.sessions: Sessions = bot.sessions
        self._timer_task: asyncio.Task[None] | None = None
        self._catch_up_task: asyncio.Task[None] | None = None
        self._timer_sleeping = False

    async def cog_load(self) -> None:
        self._timer_task = asyncio.create_task(self._timer_loop(), name="game-timers")
        # REST works as soon as we are logged in: no need to wait for the gateway.
        self._catch_up_task = asyncio.create_task(self._catch_up(), name="catch-up")

    async def _catch_up(self) -> None:
        try:
            await self.catch_up_endings()
        except Exception:
            log.exception("catching up finished games failed")

    async def cog_unload(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()

    # -- clocks ----------------------------------------------------------------------------------
    def wake_timers(self) -> None:
        """A deadline may have moved: restart the sleep (never interrupts a firing timer)."""
        if self._timer_sleeping and self._timer_task is not None:
            self._timer_task.cancel()
            self._timer_task = asyncio.create_task(self._timer_loop(), name="game-timers")

    async def _timer_loop(self) -> None:
        """Sleep until the nearest stored deadline, then let the clock act.

        Deadlines live in the database, so a restart picks them up where they were.
        """
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                for row in await self.bot.store.due_deadlines(now()):
                    await self.fire_timer(row.id)
                nearest = await self.bot.store.next_deadline()
            except Exception:
                log.exception("timer pass failed")
                nearest = None
            delay = 60.0 if nearest is None else min(60.0, max(0.05, nearest - now()))
            self._timer_sleeping = True
            try:
                await asyncio.sleep(delay)
            finally:
                self._timer_sleeping = False

    async def fire_timer(self, game_id: int) -> None:
        """The clock ran out: apply the game's timeout actions as ordinary moves."""
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is None or session.game is None or session.row.status != "active":
                return
            deadline = session.row.deadline
            if deadline is None or deadline > now():
                return
            renderer = renderer_for(session.row.kind)
            events: list[Event] = []
            for player, action_id in renderer.timeout_actions(session.game):
                try:
                    events += await self.sessions.apply(session, int(player), action_id)
                except (IllegalAction, StaleVersion) as error:
                    log.warning("game %s: timeout action %s refused: %s", game_id, action_id, error)
                    break
            if not events and session.row.deadline == deadline:
                # Nothing to do on this clock: clear it rather than firing forever.
                await self.bot.store.set_deadline(game_id, None)
                session.row.deadline = None
                return
            await self.after_move(session, events)

    # -- reading a game for a click ----------------------------------------------------------
    async def _session_for(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[Session | None, str | None]:
        session = await self.sessions.get(game_id)
        if session is None:
            return None, "I can't find that game any more."
        if session.row.status == "lobby":
            return None, "That game hasn't started yet."
        if session.row.status == "cancelled":
            return None, "That game was ended early."
        if session.row.status == "finished" or session.game is None or session.game.finished:
            return None, "That game is over."
        if session.seat(interaction.user.id) is None:
            return None, "You're not playing in this game. Start your own with `/newgame`!"
        return session, None

    def _origin(self, interaction: discord.Interaction, session: Session) -> str:
        message = interaction.message
        if message is None:
            return "other"
        if message.id == session.row.table_message_id:
            return "table"
        if interaction.guild_id is None:
            return "dm"
        if message.flags.ephemeral:
            return "ephemeral"
        return "other"

    # -- clicks ------------------------------------------------------------------------------
    async def on_act(
        self, interaction: discord.Interaction, game_id: int, version: int, target: str
    ) -> None:
        async with self.sessions.lock(game_id):
            session, problem = await self._session_for(interaction, game_id)
            if session is None:
                await refuse(interaction, problem or "That game is not available.")
                return
            game = session.game
            assert game is not None
            user_id = interaction.user.id
            player = str(user_id)
            origin = self._origin(interaction, session)

            if version != session.version:
                if origin in ("dm", "ephemeral"):
                    screen = self.hand(session, user_id, notice=STALE, dm=origin == "dm")
                    await interaction.response.edit_message(**components.message_kwargs(screen))
                    if origin == "dm":
                        session.dm_shown[user_id] = self._dm_key(session, user_id)
                else:
                    await refuse(interaction, STALE_TABLE)
                return

            legal = game.legal_actions(player)
            exact = next((a for a in legal if a.id == target), None)
            opens_step = target == ids.ROOT or (exact is not None and exact.pick is not None)
            if exact is None and any(a.id.startswith(target + ":") for a in legal):
                opens_step = True
            if opens_step:
                screen = self.hand(session, user_id, prefix=target, dm=origin == "dm")
                if origin in ("dm", "ephemeral"):
                    await interaction.response.edit_message(**components.message_kwargs(screen))
                else:
                    await interaction.response.send_message(
                        ephemeral=True, **components.send_kwargs(screen)
                    )
                return

            try:
                events = await self.sessions.apply(session, user_id, target)
            except IllegalAction as error:
                await refuse(interaction, humanize(str(error), session.names))
                return
            except StaleVersion:
                await refuse(interaction, STALE_TABLE)
                return

            notice = self._private_notice(events, player, session)
            table_done = False
            if origin == "table" and not self._table_is_old(session):
                await interaction.response.edit_message(**self.table_kwargs(session))
                table_done = True
            elif origin in ("dm", "ephemeral"):
                screen = self.hand(session, user_id, notice=notice, dm=origin == "dm")
                await interaction.response.edit_message(**components.message_kwargs(screen))
                if origin == "dm":
                    session.dm_shown[user_id] = self._dm_key(session, user_id)
            else:
                await interaction.response.send_message(notice or "Done.", ephemeral=True)
            await self.after_move(session, events, table_done=table_done)
            self.wake_timers()

    async def on_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        async with self.sessions.lock(game_id):
            session, problem = await self._session_for(interaction, game_id)
            if session is None:
                await refuse(interaction, problem or "That game is not available.")
                return
            screen = self.hand(session, interaction.user.id)
            await interaction.response.send_message(
                ephemeral=True, **components.send_kwargs(screen)
            )

    @app_commands.command(name="hand", description="See your hand in this channel's game.")
    @app_commands.guild_only()
    async def hand_command(self, interaction: discord.Interaction) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await refuse(interaction, "There's no game in this channel.")
            return
        await self.on_hand(interaction, row.id)

    # -- rendering -------------------------------------------------------------------------------
    def hand(
        self,
        session: Session,
        user_id: int,
        prefix: str = ids.ROOT,
        notice: str | None = None,
        dm: bool = False,
    ) -> Screen:
        assert session.game is not None
        renderer = renderer_for(session.row.kind)
        where = f"Game #{session.id} in <#{session.row.channel_id}>"
        if dm:
            # The DM names its game (a player may be in several) and links to the table.
            where = f"Game #{session.id} · {self._jump_url(session)}"
            header = f"Your hand for game #{session.id} ({renderer.title})"
            notice = f"{header}\n{notice}" if notice else header
        return hand_screen(
            session.id,
            session.version,
            session.game,
            str(user_id),
            renderer,
            session.names,
            session.notes(user_id),
            where,
            prefix=prefix,
            notice=notice,
            playable=session.row.status == "active",
        )

    def table(self, session: Session) -> Screen:
        assert session.game is not None
        return table_screen(
            session.id,
            session.version,
            session.game,
            renderer_for(session.row.kind),
            session.names,
            session.public_log,
            session.row.status,
            session.row.deadline,
        )

    def table_kwargs(self, session: Session) -> dict[str, Any]:
        return components.message_kwargs(self.table(session))

    def _jump_url(self, session: Session) -> str:
        row = session.row
        base = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
        return f"{base}/{row.table_message_id}" if row.table_message_id else base

    def _private_notice(self, events: list[Event], player: str, session: Session) -> str | None:
        texts = [e.private[player] for e in events if player in e.private]
        return humanize(" ".join(texts), session.names) if texts else None

    def _table_is_old(self, session: Session) -> bool:
        posted = session.row.table_posted_at
        return posted is None or now() - posted > TABLE_MAX_AGE

    # -- after a move: table, DMs, the end -------------------------------------------------------
    async def after_move(
        self, session: Session, events: list[Event], table_done: bool = False
    ) -> None:
        if not table_done:
            await self.refresh_table(session)
        await self.update_dms(session)
        game = session.game
        if game is not None and game.finished:
            await self._announce_end(session)

    async def refresh_table(self, session: Session) -> None:
        """Edit the table in place; repost it when it is old or gone."""
        channel = self.bot.get_partial_messageable(session.row.channel_id)
        message_id = session.row.table_message_id
        if message_id is not None and not self._table_is_old(session):
            try:
                await channel.get_partial_message(message_id).edit(**self.table_kwargs(session))
                return
            except discord.NotFound:
                pass
            except discord.HTTPException as error:
                if error.code != 30046:
                    log.warning("game %s: table edit failed: %s", session.id, error)
                    return
        await self.post_table(session)

    async def post_table(self, session: Session) -> None:
        channel = self.bot.get_partial_messageable(session.row.channel_id)
        old = session.row.table_message_id
        message = await channel.send(**self.table_kwargs(session))
        posted = now()
        await self.bot.store.set_table_message(session.id, message.id, posted)
        session.row.table_message_id = message.id
        session.row.table_posted_at = posted
        if old is not None:
            # The old table keeps its picture but loses its buttons, pointing to the new one.
            try:
                await channel.get_partial_message(old).edit(
                    content="The table moved down ⬇️", view=None
                )
            except discord.HTTPException:
                pass

    def _dm_key(self, session: Session, user_id: int) -> Any:
        game = session.game
        assert game is not None
        player = str(user_id)
        hand = tuple(game.view(player).get("hand", []))
        acting = session.row.status == "active" and not game.finished
        acting = acting and bool(game.legal_actions(player))
        status = session.row.status
        return (hand, session.version if acting else None, tuple(session.notes(user_id)), status)

    async def update_dms(self, session: Session) -> None:
        """Send or edit each player's DM hand when what it shows has changed."""
        jobs = []
        for seat in session.seats:
            if seat.dm_closed or seat.is_bot:
                continue
            key = self._dm_key(session, seat.user_id)
            if session.dm_shown.get(seat.user_id) == key:
                continue
            jobs.append(self._send_dm(session, seat.user_id, key))
        if jobs:
            await asyncio.gather(*jobs)

    async def _send_dm(self, session: Session, user_id: int, key: Any) -> None:
        seat = session.seat(user_id)
        if seat is None:
            return
        kwargs = components.message_kwargs(self.hand(session, user_id, dm=True))
        kwargs["content"] = (
            f"Your hand for game #{session.id} ({renderer_for(session.row.kind).title})"
        )
        try:
            if seat.dm_channel_id and seat.dm_message_id:
                channel = self.bot.get_partial_messageable(
                    seat.dm_channel_id, type=discord.ChannelType.private
                )
                try:
                    await channel.get_partial_message(seat.dm_message_id).edit(**kwargs)
                    session.dm_shown[user_id] = key
                    return
                except discord.NotFound:
                    pass  # deleted by the player: send a fresh one
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            message = await user.send(**kwargs)
            seat.dm_channel_id, seat.dm_message_id = message.channel.id, message.id
            await self.bot.store.set_dm(session.id, user_id, message.channel.id, message.id)
            session.dm_shown[user_id] = key
        except discord.Forbidden as error:
            if error.code == DM_CLOSED:
                await self._dms_closed(session, user_id)
            else:
                log.warning("game %s: DM to %s refused: %s", session.id, user_id, error)
        except discord.HTTPException as error:
            # Never stall the game on a DM: the player still has "My hand".
            log.warning("game %s: DM to %s failed: %s", session.id, user_id, error)

    async def _dms_closed(self, session: Session, user_id: int) -> None:
        seat = session.seat(user_id)
        if seat is None or seat.dm_closed:
            return
        seat.dm_closed = True
        await self.bot.store.mark_dm_closed(session.id, user_id)
        channel = self.bot.get_partial_messageable(session.row.channel_id)
        try:
            await channel.send(
                f"<@{user_id}> I can't send you direct messages, so press **My hand** on the "
                "table to see your cards and play.",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException as error:
            log.warning("game %s: closed-DM notice failed: %s", session.id, error)

    async def _announce_end(self, session: Session) -> None:
        game = session.game
        assert game is not None
        row = session.row
        winners = [int(w) for w in game.winners]
        names = session.names
        if winners:
            who = " and ".join(f"<@{w}>" for w in winners)
            text = f"🏆 {who} {'wins' if len(winners) == 1 else 'win'} game #{row.id}!"
        else:
            text = f"🤝 Game #{row.id} ends in a draw."
        # How it was won (a knockout, a goal, a decision...), as the table's result says it.
        how = renderer_for(row.kind).result_text(game.view(None), names).split("\n", 1)[0]
        if how:
            text += f"\n{how}"
        scores = ", ".join(f"{names.get(p, p)} {game.scores.get(p, 0)}" for p in game.players)
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            await channel.send(f"{text}\nFinal scores: {scores}")
        except discord.HTTPException as error:
            log.warning("game %s: result post failed: %s", row.id, error)
        await self.bot.store.mark_announced(row.id)

    async def catch_up_endings(self) -> None:
        """Finish what a crash interrupted: games that ended but whose end was never posted."""
        for row in await self.bot.store.unannounced():
            async with self.sessions.lock(row.id):
                session = await self.sessions.get(row.id)
                if session is None or session.game is None:
                    continue
                await self.refresh_table(session)
                await self.update_dms(session)
                await self._announce_end(session)


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """A friendly, ephemeral "no" to the person who clicked; nothing changes."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Play(bot))
