"""discord.py glue: Screen specs -> Embed/View, and the DynamicItems that route clicks.

Every component is a DynamicItem, so a sent view is "fully dynamic": discord.py stores nothing
per message, and any button from any earlier message (or before a restart) still routes here.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from cogs import ids
from cogs.render.spec import Button, Embed, Screen, Select

if TYPE_CHECKING:
    from cogs.play import Play

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _play(interaction: discord.Interaction) -> Play:
    cog = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    assert cog is not None, "the Play cog is not loaded"
    return cog


async def _safely(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Run a click handler; an unexpected error is logged and the clicker told kindly."""
    try:
        await work
    except Exception:
        log.exception("click %s failed", interaction.data)
        text = "Something went wrong on my side; nothing was changed. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


class ActButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.ACT):
    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ActButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        play = _play(interaction)
        await _safely(
            interaction,
            play.on_act(interaction, int(match["game"]), int(match["version"]), match["target"]),
        )


class ActSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.SELECT):
    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ActSelect:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        values = self.item.values
        target = values[0] if values else ids.ROOT
        play = _play(interaction)
        await _safely(
            interaction, play.on_act(interaction, int(match["game"]), int(match["version"]), target)
        )


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.PICK):
    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> PickSelect:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        chosen = ".".join(self.item.values)
        play = _play(interaction)
        target = f"{match['action']}:{chosen}"
        await _safely(
            interaction, play.on_act(interaction, int(match["game"]), int(match["version"]), target)
        )


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.HAND):
    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> HandButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        await _safely(interaction, _play(interaction).on_hand(interaction, int(match["game"])))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.LOBBY):
    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> LobbyButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        cog = interaction.client.get_cog("Lobby")  # type: ignore[attr-defined]
        await _safely(interaction, cog.on_lobby(interaction, int(match["game"]), match["verb"]))


DYNAMIC_ITEMS = (ActButton, ActSelect, PickSelect, HandButton, LobbyButton)
_BY_PREFIX: dict[str, Any] = {
    "g": ActButton,
    "s": ActSelect,
    "k": PickSelect,
    "h": HandButton,
    "l": LobbyButton,
}


def to_embed(spec: Embed) -> discord.Embed:
    embed = discord.Embed(title=spec.title, description=spec.description or None, color=spec.color)
    for name, value, inline in spec.fields:
        embed.add_field(name=name, value=value or "—", inline=inline)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    return embed


def to_view(screen: Screen) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(screen.rows):
        if isinstance(row, Select):
            view.add_item(_select(row, row_index))
        else:
            for button in row:
                view.add_item(_button(button, row_index))
    return view


def _button(spec: Button, row: int) -> discord.ui.Item:
    button: discord.ui.Button = discord.ui.Button(
        label=spec.label,
        custom_id=spec.custom_id,
        style=STYLES[spec.style],
        emoji=spec.emoji,
        disabled=spec.disabled,
    )
    return _wrap(button, row)


def _wrap(item: discord.ui.Button | discord.ui.Select, row: int) -> discord.ui.Item:
    wrapper = _BY_PREFIX[str(item.custom_id)[0]](item)
    wrapper.row = row
    return wrapper


def _select(spec: Select, row: int) -> discord.ui.Item:
    select: discord.ui.Select = discord.ui.Select(
        custom_id=spec.custom_id,
        placeholder=spec.placeholder[:150],
        min_values=spec.min_values,
        max_values=spec.max_values,
        options=[
            discord.SelectOption(
                label=c.label, value=c.value, description=c.description, emoji=c.emoji
            )
            for c in spec.options
        ],
    )
    return _wrap(select, row)


def message_kwargs(screen: Screen) -> dict[str, Any]:
    """Arguments for an edit (or a channel send): content, embed and view, None clears them."""
    return {
        "content": screen.content,
        "embed": to_embed(screen.embed) if screen.embed else None,
        "view": to_view(screen) if screen.rows else None,
    }


def send_kwargs(screen: Screen) -> dict[str, Any]:
    """Arguments for an interaction reply, which takes no ``None`` for an absent part."""
    return {k: v for k, v in message_kwargs(screen).items() if v is not None}
