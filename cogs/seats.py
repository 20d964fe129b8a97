"""Who plays a seat during a game: leaving, kicking, coming back, and turn reminders.

A member's seat can be handed to a bot (they left, were kicked, or ran out of time three turns
in a row). Someone who left or timed out takes it back at any time with "I'm back"; a kicked
member cannot (the host's decision stands for the rest of the game). When no member is left
playing, the game ends as abandoned, with no winner counted.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import components, ids
from cogs.clock import now
from cogs.lobby import may_end, not_allowed
from cogs.render.spec import Button, Screen
from cogs.replies import in_guild, reply
from cogs.sessions import Session
from db import SeatChange, SeatRemoved, SeatRow

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

LEFT_TOLD_EVERY = 600.0  # seconds: how often a member leaving a game is told in its channel


class Seats(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.sessions = bot.sessions
        # (game, member) -> when their leaving was last told in the channel (``LEFT_TOLD_EVERY``).
        self._left_told: dict[tuple[int, int], float] = {}

    async def cog_load(self) -> None:
        components.handle("b", self.on_back)
        components.handle("q", self.on_leave)
        components.handle("n", self.on_nudges_off)

    # -- leaving -----------------------------------------------------------------------------
    @app_commands.command(name="leave", description="Leave this channel's game (a bot takes over).")
    @app_commands.guild_only()
    @in_guild()
    async def leave(self, interaction: discord.Interaction) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "There's no game in this channel.")
            return
        lobby = self.bot.get_cog("Lobby")
        if row.status == "lobby" and lobby is not None:
            # Started meanwhile (the host pressed Start as this was typed): the game's leave.
            if await lobby.leave_by_command(interaction, row.id):  # type: ignore[attr-defined]
                return
        await self._ask_leave(interaction, row.id)

    async def on_leave(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        if parsed.rest == "ask":
            await self._ask_leave(interaction, parsed.game)
        else:
            await self._do_leave(interaction, parsed.game)

    async def _ask_leave(self, interaction: discord.Interaction, game_id: int) -> None:
        session = await self.sessions.get(game_id)
        seat = session.seat(interaction.user.id) if session else None
        if session is None or session.row.status != "active" or seat is None or not seat.human:
            await reply(interaction, "You're not playing in a running game there.")
            return
        if seat.is_bot:
            await reply(interaction, _not_yours_to_leave(seat))
            return
        others = any(s.human and not s.is_bot and s.user_id != seat.user_id for s in session.seats)
        content = (
            f"Leave game #{game_id}? A bot will play your seat from now on. Changed your "
            "mind later? Press **I'm back** while the game runs to take the seat back."
            if others
            else f"Leave game #{game_id}? You're the last member playing, so leaving ends the "
            "game as abandoned."
        )
        screen = Screen(
            content=content,
            rows=[[Button("Leave the game", ids.leave(game_id, "yes"), "danger")]],
        )
        await components.answer_private(interaction, screen)

    async def _do_leave(self, interaction: discord.Interaction, game_id: int) -> None:
        user = interaction.user
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            seat = session.seat(user.id) if session else None
            if session is None or session.row.status != "active" or seat is None:
                await reply(interaction, "That game is not running any more.")
                return
            if seat.is_bot:
                await reply(interaction, _not_yours_to_leave(seat))
                return
            try:
                await self._hand_to_bot(session, user.id, "left")
            except SeatRemoved:  # kicked meanwhile, by another process
                await reply(interaction, "You were removed from this game.")
                return
            ended = await self.sessions.abandon_if_empty(session)
        await reply(
            interaction,
            "You left the game." if ended else "You left the game: a bot plays your seat now.",
        )
        text = f"<@{user.id}> left game #{game_id}; a bot plays their seat."
        if ended:
            text = f"<@{user.id}> left game #{game_id}. Nobody is left playing: game abandoned."
        elif not self._tell_leaving(game_id, user.id):
            # Left again soon after (a /leave and /back loop): the table shows it; the
            # channel is not filled with the same post.
            self.bot.presenter.update(session)
            self.bot.wake_timers()
            return
        self._announce(session, text)

    # -- kicking -----------------------------------------------------------------------------
    @app_commands.command(
        name="kick", description="Hand a player's seat to a bot, or remove them from the lobby."
    )
    @app_commands.describe(member="The player to remove from this channel's game")
    @app_commands.guild_only()
    @in_guild()
    async def kick(
        self,
        interaction: discord.Interaction,
        # A User too: a player who left the server still holds a seat (DMs need no server).
        member: discord.Member | discord.User,
    ) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "There's no game in this channel.")
            return
        lobby = self.bot.get_cog("Lobby")
        if row.status == "lobby" and lobby is not None:
            # False: started meanwhile (Start pressed as this was typed): the game's kick.
            if await lobby.kick_by_command(interaction, row.id, member):  # type: ignore[attr-defined]
                return
        async with self.sessions.lock(row.id):
            session = await self.sessions.get(row.id)
            if session is None or session.row.status != "active":
                await reply(interaction, "That game is not running any more.")
                return
            if not may_end(interaction, session):
                await reply(interaction, not_allowed(interaction, session, "kick players"))
                return
            seat = session.seat(member.id)
            if seat is None or not seat.human:
                await reply(interaction, "That member is not playing in this game.")
                return
            if member.id == interaction.user.id:
                await reply(interaction, "To leave your own game, use `/leave`.")
                return
            if seat.away == "kicked":
                await reply(interaction, "That member was already removed.")
                return
            try:
                await self._hand_to_bot(session, member.id, "kicked")
            except SeatRemoved:  # by another process, meanwhile
                await reply(interaction, "That member was already removed.")
                return
            ended = await self.sessions.abandon_if_empty(session)
        await reply(
            interaction,
            "Done: nobody is left playing, so the game is abandoned."
            if ended
            else "Done: a bot plays that seat now.",
        )
        text = f"<@{member.id}> was removed from game #{row.id}; a bot plays their seat."
        if ended:
            text = f"<@{member.id}> was removed from game #{row.id}. Nobody is left playing: "
            text += "game abandoned."
        self._announce(session, text)

    # -- coming back -------------------------------------------------------------------------
    @app_commands.command(name="back", description="Take your seat back from the bot.")
    @app_commands.guild_only()
    @in_guild()
    async def back(self, interaction: discord.Interaction) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "There's no game in this channel.")
            return
        await self._come_back(interaction, row.id)

    async def on_back(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        await self._come_back(interaction, parsed.game)

    async def _come_back(self, interaction: discord.Interaction, game_id: int) -> None:
        user = interaction.user
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            seat = session.seat(user.id) if session else None
            if session is None or session.row.status != "active" or seat is None or not seat.human:
                await reply(interaction, "You have no seat in a running game there.")
                return
            if not seat.is_bot:
                await reply(interaction, "You're already playing your seat.")
                return
            if seat.away == "kicked":
                await reply(interaction, "You were removed from this game; you can't return.")
                return
            # Back from /leave, the strikes of before stay (leaving and coming back is no way
            # to wipe them); back from three timeouts, the count starts again.
            strikes = seat.strikes if seat.away == "left" else 0
            change = SeatChange(user.id, False, None, None, strikes)
            try:
                await self.sessions.change_seat(session, change, now())
            except SeatRemoved:  # kicked meanwhile, by another process
                await reply(interaction, "You were removed from this game; you can't return.")
                return
        await reply(interaction, "Welcome back! Your seat is yours again.")
        self.bot.presenter.update(session)
        self.bot.wake_timers()

    # -- nudges ------------------------------------------------------------------------------
    @app_commands.command(name="nudges", description="Turn your-turn reminders on or off.")
    @app_commands.describe(setting="True: ping me when it's my turn; False: never")
    async def nudges(self, interaction: discord.Interaction, setting: bool) -> None:
        await self.bot.store.set_nudges(interaction.user.id, setting)
        text = (
            "I'll ping you when it's your turn and you haven't moved for a while."
            if setting
            else "I won't ping you about your turn any more (`/nudges` to change it)."
        )
        await reply(interaction, text)

    async def on_nudges_off(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        await self.bot.store.set_nudges(interaction.user.id, False)
        await reply(
            interaction, "I won't ping you about your turn any more (`/nudges` to change it)."
        )

    # -- shared ------------------------------------------------------------------------------
    async def _hand_to_bot(self, session: Session, user_id: int, why: str) -> None:
        seat = session.seat(user_id)
        assert seat is not None
        level = session.row.settings.get("level", "normal")
        await self.sessions.change_seat(
            session, SeatChange(user_id, True, level, why, seat.strikes), now()
        )

    def _tell_leaving(self, game_id: int, user_id: int) -> bool:
        """Whether a member's leaving is told in the channel: once per game every
        ``LEFT_TOLD_EVERY`` seconds."""
        moment = now()
        told = self._left_told
        if moment - told.get((game_id, user_id), float("-inf")) < LEFT_TOLD_EVERY:
            return False
        self._left_told = {k: t for k, t in told.items() if moment - t < LEFT_TOLD_EVERY}
        self._left_told[(game_id, user_id)] = moment
        return True

    def _announce(self, session: Session, text: str) -> None:
        self.bot.presenter.announce(session, text)
        self.bot.wake_timers()


def _not_yours_to_leave(seat: SeatRow) -> str:
    if seat.away == "kicked":
        return "You were removed from this game: there is nothing to leave."
    return "A bot already plays your seat; nothing to leave."


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Seats(bot))
