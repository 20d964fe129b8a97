"""A tiny stand-in for bot.py, used to test the fake itself (run_bot.py --module sample_bot).

It exercises what the real bot relies on: a guild-synced slash command answering with a message
that carries a persistent DynamicItem button; a click edits that message through the interaction
(response type 7) and DMs the clicker; a closed DM (50007) is survived with an ephemeral notice.
Configuration comes from the environment like the real bot: DISCORD_TOKEN, DEV_GUILD_ID, LOG_LEVEL.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("sample_bot")


class CountButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<game>\w+):(?P<n>\d+)"
):
    """The state lives in the custom_id, so the button works after a restart with nothing stored."""

    def __init__(self, game: str, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Click ({n})",
                style=discord.ButtonStyle.primary,
                custom_id=f"count:{game}:{n}",
            )
        )
        self.game = game
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CountButton:
        return cls(match["game"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = self.n + 1
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.game, clicks))
        await interaction.response.edit_message(
            content=f"{self.game}: {clicks} click(s), last by {interaction.user.name}", view=view
        )
        try:
            await interaction.user.send(f"You clicked {self.game}; it now has {clicks} click(s).")
        except discord.Forbidden as exc:
            # 50007: the user's DMs are closed. Never let that break the game.
            log.warning("DM to %s refused (code %s)", interaction.user.id, exc.code)
            await interaction.followup.send(
                "Your DMs are closed, so no DM for you.", ephemeral=True
            )


class SampleBot(commands.Bot):
    def __init__(self, dev_guild_id: int | None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.dev_guild_id = dev_guild_id

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CountButton)
        self.tree.add_command(newgame)
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("commands synced")

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))


@app_commands.command(description="Start a new game")
@app_commands.describe(game="Which game")
@app_commands.choices(
    game=[
        app_commands.Choice(name="UNO", value="uno"),
        app_commands.Choice(name="Haymaker", value="haymaker"),
    ]
)
async def newgame(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(CountButton(game.value, 0))
    await interaction.response.send_message(
        f"New {game.value} game by {interaction.user.name}", view=view
    )


def main() -> None:
    dev_guild = os.environ.get("DEV_GUILD_ID")
    bot = SampleBot(int(dev_guild) if dev_guild else None)
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    bot.run(os.environ["DISCORD_TOKEN"], log_level=level, root_logger=True)


if __name__ == "__main__":
    main()
