"""/rules <game>: how to play, from the rules pages in docs/rules/."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.hosting import GAMES

if TYPE_CHECKING:
    from bot import CardBot

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
GAME_CHOICES = [app_commands.Choice(name=h.title, value=kind) for kind, h in GAMES.items()]


class Rules(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play one of the games.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        hosted = GAMES[game.value]
        path = RULES_DIR / f"{game.value}.md"
        text = path.read_text(encoding="utf-8") if path.is_file() else hosted.engine.summary
        chunks = split_text(text, 3900)
        embeds = [
            discord.Embed(title=hosted.title if i == 0 else None, description=chunk, color=0x5865F2)
            for i, chunk in enumerate(chunks)
        ]
        # A message holds 6000 characters of embeds: send the rest as follow-ups.
        await interaction.response.send_message(embed=embeds[0], ephemeral=True)
        for embed in embeds[1:]:
            await interaction.followup.send(embed=embed, ephemeral=True)


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
    await bot.add_cog(Rules(bot))
