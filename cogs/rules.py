"""/rules <game>: a quick start at once, the full rules one choice away (a menu of sections)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import components, ids
from cogs.hosting import GAMES, Hosted
from cogs.lobby import TIMER_RANGE
from cogs.render import rules as pages
from cogs.render.spec import Choice, Embed, Screen, Select, clip
from cogs.replies import reply

if TYPE_CHECKING:
    from bot import CardBot

KINDS = list(GAMES)
GAME_CHOICES = [app_commands.Choice(name=h.title, value=kind) for kind, h in GAMES.items()]


def book_for(hosted: Hosted, nudge_after: float = pages.NUDGE_DEFAULT) -> pages.Book:
    cls = hosted.engine
    return pages.book(
        hosted.kind,
        cls.summary,
        cls.options,
        cls.max_players,
        hosted.turn_timer,
        TIMER_RANGE,
        hosted.bot_levels(),
        nudge_after=nudge_after,
    )


def rules_screen(kind: str, index: int = 0, nudge_after: float = pages.NUDGE_DEFAULT) -> Screen:
    """Section ``index`` of a game's rules (0: the quick start), with the menu of sections;
    the reminder delay said is this bot's (``NUDGE_AFTER_SECONDS``)."""
    hosted = GAMES[kind]
    book = book_for(hosted, nudge_after)
    index = min(max(index, 0), len(book.sections) - 1)
    section = book.sections[index]
    text = f"{book.intro}\n\n{section.body}" if index == 0 else section.body
    embed = Embed(
        title=clip(f"{book.title} — {section.title}", 256),
        description=clip(text, pages.MAX_SECTION),
        color=hosted.renderer.color,
        footer=f"Page {index + 1} of {len(book.sections)} · pick another below",
    )
    menu = Select(
        custom_id=ids.rules(KINDS.index(kind)),
        placeholder="Full rules: choose a section",
        options=[
            Choice(clip(f"{i + 1}. {s.title}", 100), str(i))
            for i, s in enumerate(book.sections[:25])
        ],
    )
    return Screen(embed=embed, rows=[menu])


class Rules(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        components.handle("u", self.on_section)

    @app_commands.command(name="rules", description="How to play one of the games.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        if game.value not in GAMES:
            await reply(interaction, "I don't know that game.")
            return
        screen = rules_screen(game.value, 0, self.bot.settings.nudge_after)
        await components.answer_private(interaction, screen)

    async def on_section(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        index = int(values[0]) if values and values[0].isdigit() else 0
        if not 0 <= parsed.game < len(KINDS):
            await reply(interaction, components.INVALID)
            return
        screen = rules_screen(KINDS[parsed.game], index, self.bot.settings.nudge_after)
        await components.answer_update(interaction, screen)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Rules(bot))
