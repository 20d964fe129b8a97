"""Entry point: settings, logging, one database connection, the cogs, command sync.

python bot.py        # reads DISCORD_TOKEN (and the rest) from the environment or .env
"""

from __future__ import annotations

import logging
import sys

import discord
from discord import app_commands
from discord.ext import commands

from cogs.clock import now
from cogs.components import DYNAMIC_ITEMS
from cogs.sessions import Sessions
from config import ConfigError, Settings, load_settings
from db import Store

log = logging.getLogger("cardtable")

EXTENSIONS = ("cogs.play", "cogs.lobby")


class CardBot(commands.Bot):
    store: Store
    sessions: Sessions

    def __init__(self, settings: Settings) -> None:
        # Slash commands and buttons only: no privileged intents needed.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
        )
        self.settings = settings
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.store.clock = now
        self.sessions = Sessions(self.store)
        # Buttons route by custom_id alone, so every old message keeps working.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """One place for unexpected errors: log them, tell the user kindly."""
        if isinstance(error, app_commands.NoPrivateMessage):
            text = "That command works in a server channel, not in DMs."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You can't use that command here."
        else:
            log.exception("command %s failed", interaction.command, exc_info=error)
            text = "Something went wrong on my side. Please try again."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(settings: Settings) -> CardBot:
    return CardBot(settings)


def main() -> None:
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    bot = create_bot(settings)
    bot.run(settings.token, log_handler=None)


if __name__ == "__main__":
    main()
