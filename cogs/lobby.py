"""Starting and ending games: /newgame and its lobby, /endgame, /games, /rules."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

import engine
from cogs import components
from cogs.clock import now
from cogs.play import Play, refuse
from cogs.render.screens import lobby_screen
from cogs.render.spec import Screen, clip
from cogs.sessions import Session
from db import ChannelBusy
from engine.options import InvalidOption, validate_options

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
GAME_CHOICES = [
    app_commands.Choice(name=cls.title, value=kind) for kind, cls in engine.GAMES.items()
]


class Lobby(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.sessions = bot.sessions

    async def cog_load(self) -> None:
        self.expire_lobbies.start()

    async def cog_unload(self) -> None:
        self.expire_lobbies.cancel()

    # -- /newgame ---------------------------------------------------------------------------
    @app_commands.command(name="newgame", description="Open a lobby for a new card game here.")
    @app_commands.guild_only()
    @app_commands.choices(
        game=GAME_CHOICES,
        scoring=[
            app_commands.Choice(
                name="standard: the winner scores the others' cards", value="standard"
            ),
            app_commands.Choice(name="lowest: running tally, lowest total wins", value="lowest"),
        ],
    )
    @app_commands.describe(
        game="Which game to play",
        target="UNO: points needed to win the match (default 500)",
        scoring="UNO: how points are counted",
        swap_hands="UNO: add the Wild Swap Hands card",
        custom_wilds="UNO: how many Wild Customizable cards (0-3), each with a house rule",
        custom_rules='UNO: house rules on those cards, e.g. "1,4,7" (empty: chosen at random)',
        stack_draws="UNO house rule: stack Draw Twos (and Draw Fours)",
        seven_zero="UNO house rule: 7 swaps hands with someone, 0 rotates all hands",
        jump_in="UNO house rule: play an identical card out of turn",
        draw_until_playable="UNO house rule: keep drawing until you can play",
        forced_play="UNO house rule: a playable drawn card must be played",
    )
    async def newgame(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        target: app_commands.Range[int, 50, 5000] | None = None,
        scoring: app_commands.Choice[str] | None = None,
        swap_hands: bool | None = None,
        custom_wilds: app_commands.Range[int, 0, 3] | None = None,
        custom_rules: str | None = None,
        stack_draws: bool | None = None,
        seven_zero: bool | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        forced_play: bool | None = None,
    ) -> None:
        kind = game.value
        cls = engine.GAMES[kind]
        given = {
            "target": target,
            "scoring": scoring.value if scoring else None,
            "swap_hands": swap_hands,
            "custom_wilds": custom_wilds,
            "custom_rules": custom_rules,
            "stack_draws": stack_draws,
            "seven_zero": seven_zero,
            "jump_in": jump_in,
            "draw_until_playable": draw_until_playable,
            "forced_play": forced_play,
        }
        chosen = {k: v for k, v in given.items() if v is not None}
        try:
            # The engine is the judge: building a throwaway game runs every cross-check.
            options = validate_options(cls.title, cls.options, chosen)
            players = [str(i) for i in range(cls.min_players)]
            engine.new_game(kind, players, seed=0, options=chosen)
        except InvalidOption as error:
            await refuse(interaction, str(error))
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        user = interaction.user
        try:
            row = await self.bot.store.create_lobby(
                interaction.guild_id,
                interaction.channel_id,
                kind,
                user.id,
                user.display_name,
                chosen,
                secrets.randbits(63),
            )
        except ChannelBusy:
            await refuse(
                interaction,
                "This channel already has a game. Finish it (or `/endgame`) first, "
                "or start one in another channel.",
            )
            return
        session = await self.sessions.get(row.id)
        assert session is not None
        await interaction.response.send_message(
            **components.send_kwargs(self.lobby(session, options_shown=options))
        )
        message = await interaction.original_response()
        await self.bot.store.set_table_message(row.id, message.id, now())
        session.row.table_message_id = message.id

    def lobby(
        self,
        session: Session,
        closed: str | None = None,
        options_shown: dict | None = None,
    ) -> Screen:
        cls = engine.GAMES[session.row.kind]
        if options_shown is None:
            options_shown = validate_options(cls.title, cls.options, session.row.options)
        host = session.seat(session.row.host_id)
        return lobby_screen(
            session.id,
            cls.title,
            host.name if host else "?",
            [s.name for s in session.seats],
            cls.min_players,
            cls.max_players,
            options_shown,
            closed=closed,
        )

    # -- lobby buttons -----------------------------------------------------------------------
    async def on_lobby(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is None:
                await refuse(interaction, "I can't find that game any more.")
                return
            if session.row.status != "lobby":
                status = session.row.status
                text = {
                    "active": "That game has already started.",
                    "finished": "That game is over.",
                    "cancelled": "That lobby was closed.",
                }.get(status, "That lobby is closed.")
                await refuse(interaction, text)
                return
            handler = {
                "join": self._join,
                "leave": self._leave,
                "start": self._start,
                "cancel": self._cancel,
            }[verb]
            await handler(interaction, session)

    async def _join(self, interaction: discord.Interaction, session: Session) -> None:
        cls = engine.GAMES[session.row.kind]
        user = interaction.user
        if session.seat(user.id) is not None:
            await refuse(interaction, "You're already in this game.")
            return
        if len(session.seats) >= cls.max_players:
            await refuse(interaction, f"This game is full ({cls.max_players} players).")
            return
        await self.bot.store.add_seat(session.id, user.id, user.display_name)
        await self.sessions.reload_row(session)
        await interaction.response.edit_message(**components.message_kwargs(self.lobby(session)))

    async def _leave(self, interaction: discord.Interaction, session: Session) -> None:
        user = interaction.user
        if session.seat(user.id) is None:
            await refuse(interaction, "You're not in this game.")
            return
        if user.id == session.row.host_id:
            await refuse(interaction, "You're the host: press **Cancel** to close the lobby.")
            return
        await self.bot.store.remove_seat(session.id, user.id)
        await self.sessions.reload_row(session)
        await interaction.response.edit_message(**components.message_kwargs(self.lobby(session)))

    async def _start(self, interaction: discord.Interaction, session: Session) -> None:
        cls = engine.GAMES[session.row.kind]
        if interaction.user.id != session.row.host_id:
            await refuse(interaction, "Only the host can start the game.")
            return
        count = len(session.seats)
        if count < cls.min_players:
            need = cls.min_players - count
            await refuse(interaction, f"{cls.title} needs {need} more player(s) to start.")
            return
        await self.sessions.start(session)
        closed = f"Started with {count} players — the table is below."
        await interaction.response.edit_message(
            **components.message_kwargs(self.lobby(session, closed=closed))
        )
        # The lobby message stays as a record; the table is a new message (it notifies).
        session.row.table_message_id = None
        play = self.play
        await play.post_table(session)
        await play.update_dms(session)
        play.wake_timers()

    async def _cancel(self, interaction: discord.Interaction, session: Session) -> None:
        if not self._may_end(interaction, session):
            await refuse(interaction, "Only the host (or a server manager) can cancel the lobby.")
            return
        await self.sessions.set_status(session, "cancelled")
        closed = f"Cancelled by {interaction.user.display_name}."
        await interaction.response.edit_message(
            **components.message_kwargs(self.lobby(session, closed=closed))
        )

    def _may_end(self, interaction: discord.Interaction, session: Session) -> bool:
        if interaction.user.id == session.row.host_id:
            return True
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and perms.manage_guild)

    @property
    def play(self) -> Play:
        cog = self.bot.get_cog("Play")
        assert isinstance(cog, Play)
        return cog

    # -- /endgame, /games, /rules ------------------------------------------------------------------
    @app_commands.command(name="endgame", description="End this channel's game (host or managers).")
    @app_commands.guild_only()
    async def endgame(self, interaction: discord.Interaction) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await refuse(interaction, "There's no game in this channel.")
            return
        async with self.sessions.lock(row.id):
            session = await self.sessions.get(row.id)
            if session is None or session.row.status not in ("lobby", "active"):
                await refuse(interaction, "That game has already ended.")
                return
            if not self._may_end(interaction, session):
                await refuse(
                    interaction, "Only the host or someone with Manage Server can end this game."
                )
                return
            was_lobby = session.row.status == "lobby"
            await self.sessions.set_status(session, "cancelled")
            who = interaction.user.display_name
            await interaction.response.send_message(f"Game #{row.id} was ended by {who}.")
            if was_lobby or session.game is None:
                screen = self.lobby(session, closed=f"Cancelled by {who}.")
                kwargs = components.message_kwargs(screen)
            else:
                kwargs = self.play.table_kwargs(session)
            if session.row.table_message_id:
                channel = self.bot.get_partial_messageable(session.row.channel_id)
                try:
                    await channel.get_partial_message(session.row.table_message_id).edit(**kwargs)
                except discord.HTTPException as error:
                    log.info("game %s: could not close the table message: %s", row.id, error)
            if session.game is not None:
                await self.play.update_dms(session)

    @app_commands.command(name="games", description="The games open in this server.")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.store.open_games_in_guild(interaction.guild_id or 0)
        if not rows:
            await refuse(
                interaction, "No games are open in this server. Start one with `/newgame`!"
            )
            return
        lines = []
        for row in rows:
            seats = await self.bot.store.seats(row.id)
            title = engine.GAMES[row.kind].title
            state = "waiting in the lobby" if row.status == "lobby" else "in progress"
            link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
            if row.table_message_id:
                link += f"/{row.table_message_id}"
            lines.append(
                f"**#{row.id} {title}** in <#{row.channel_id}> — {len(seats)} players, "
                f"{state} · [table]({link})"
            )
        embed = discord.Embed(title="Open games", description=clip("\n".join(lines), 4000))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="rules", description="How to play one of the games.")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        cls = engine.GAMES[game.value]
        path = RULES_DIR / f"{game.value}.md"
        text = path.read_text(encoding="utf-8") if path.is_file() else cls.summary
        chunks = split_text(text, 3900)
        embeds = [
            discord.Embed(title=cls.title if i == 0 else None, description=chunk, color=0x5865F2)
            for i, chunk in enumerate(chunks)
        ]
        # A message holds 6000 characters of embeds: send the rest as follow-ups.
        await interaction.response.send_message(embed=embeds[0], ephemeral=True)
        for embed in embeds[1:]:
            await interaction.followup.send(embed=embed, ephemeral=True)

    # -- housekeeping -----------------------------------------------------------------------------
    @tasks.loop(minutes=1)
    async def expire_lobbies(self) -> None:
        cutoff = now() - self.bot.settings.lobby_timeout_minutes * 60
        for row in await self.bot.store.stale_lobbies(cutoff):
            await self.expire(row.id)

    async def expire(self, game_id: int) -> None:
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is None or session.row.status != "lobby":
                return
            await self.sessions.set_status(session, "cancelled")
            if session.row.table_message_id:
                screen = self.lobby(
                    session, closed="This lobby expired. Start a new one with /newgame."
                )
                channel = self.bot.get_partial_messageable(session.row.channel_id)
                try:
                    await channel.get_partial_message(session.row.table_message_id).edit(
                        **components.message_kwargs(screen)
                    )
                except discord.HTTPException as error:
                    log.info("lobby %s: could not mark it expired: %s", game_id, error)

    @expire_lobbies.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()


def split_text(text: str, limit: int) -> list[str]:
    """Split on paragraph boundaries into pieces of at most ``limit`` characters."""
    chunks: list[str] = []
    current = ""
    for para in text.split("\n\n"):
        while len(para) > limit:
            chunks.append(para[:limit])
            para = para[limit:]
        candidate = f"{current}\n\n{para}" if current else para
        if len(candidate) > limit:
            chunks.append(current)
            current = para
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks or ["(no rules page yet)"]


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Lobby(bot))
