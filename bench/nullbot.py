"""The do-nothing bot: the floor the load benchmark compares the real bot with.

    python tests/fakediscord/run_bot.py <fake_base_url> --module bench.nullbot

One DynamicItem matches every custom id (buttons and selects alike) and answers each click
with a deferred update (callback type 6): discord.py's own cost of receiving an interaction,
routing it to a DynamicItem and answering it, and nothing else. No commands, no database.
Configuration comes from the environment like the real bot: DISCORD_TOKEN, LOG_LEVEL.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import discord

log = logging.getLogger("nullbot")


class AnyItem(discord.ui.DynamicItem[Any], template=r"(?s:.+)"):
    """Whatever was clicked: acknowledge it and change nothing."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnyItem:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # a component: type 6, DEFERRED_UPDATE_MESSAGE


class NullBot(discord.Client):
    def __init__(self) -> None:
        # The same intents as the real bot, so both receive the same gateway traffic.
        super().__init__(intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AnyItem)

    async def on_ready(self) -> None:
        log.info("null bot ready as %s", self.user)


def main() -> None:
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    NullBot().run(os.environ["DISCORD_TOKEN"], log_level=level, root_logger=True)


if __name__ == "__main__":
    main()
