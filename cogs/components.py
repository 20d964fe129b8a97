"""discord.py glue: Screen specs -> Embed/View, and the one DynamicItem that routes clicks.

Every component is matched by a single DynamicItem, so a sent view is "fully dynamic":
discord.py stores nothing per message, and any button from any earlier message (or from before
a restart) still routes here. The id is parsed once (``ids.parse``) and handed to the handler
its prefix names; an unknown, malformed or forged id gets a kind reply, and an unexpected error
goes through the one error path in ``cogs.replies``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.enums import InteractionResponseType
from discord.http import MultipartParameters
from discord.webhook.async_ import async_context

from cogs import ids, replies
from cogs.render.spec import (
    MAX_BUTTON_LABEL,
    MAX_OPTION_LABEL,
    MAX_PLACEHOLDER,
    Button,
    Embed,
    Screen,
    Select,
    clip,
)
from cogs.render.text import plain

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction, ids.Parsed, list[str]], Awaitable[None]]
HANDLERS: dict[str, Handler] = {}  # id prefix -> handler, filled by the cogs as they load

INVALID = "That button doesn't work any more. Use the latest message of the game."

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def handle(prefix: str, handler: Handler) -> None:
    HANDLERS[prefix] = handler


class Control(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?P<id>[\s\S]{1,100})"):
    """Every button and select of the bot (the template matches any id; parsing decides)."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Control:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.item)


async def dispatch(interaction: discord.Interaction, item: discord.ui.Item[Any]) -> None:
    custom_id = str(getattr(item, "custom_id", "") or "")
    parsed = ids.parse(custom_id)
    is_select = isinstance(item, discord.ui.Select)
    handler = HANDLERS.get(parsed.prefix) if parsed is not None else None
    # A select's id on a button (or the reverse) is forged: refuse it like any bad id.
    if parsed is None or handler is None or (parsed.prefix in ids.SELECTS) != is_select:
        await replies.reply(interaction, INVALID)
        return
    values = [str(v) for v in item.values] if isinstance(item, discord.ui.Select) else []
    watch = asyncio.get_running_loop().call_later(replies.ACK_WITHIN, _working_on_it, interaction)
    try:
        await handler(interaction, parsed, values)
    except Exception as error:
        await replies.report_error(interaction, error)
    finally:
        watch.cancel()


def _working_on_it(interaction: discord.Interaction) -> None:
    """The handler is slow (a database waiting on a lock): acknowledge the click now, so
    Discord keeps it; the answer then edits the message or follows up (``_answer``)."""
    if interaction.response.is_done() or replies.ANSWERING in interaction.extras:
        return
    interaction.extras[replies.DEFERRING] = asyncio.create_task(_defer(interaction))


async def _defer(interaction: discord.Interaction) -> None:
    kind = InteractionResponseType.deferred_message_update
    try:
        await _callback(interaction, {"type": kind.value})
    except discord.HTTPException as error:
        log.info("could not acknowledge interaction %s: %s", interaction.id, error)
        return
    interaction.response._response_type = kind


DYNAMIC_ITEMS = (Control,)


def _shown(text: str, limit: int) -> str:
    """A label, option or placeholder as Discord shows it (no markdown there): unescaped,
    then clipped, so escapes take none of the room. Renderers clip with ``clip_label``, to the
    same text; this keeps other specs within Discord's limits too."""
    return clip(plain(text), limit)


def to_embed(spec: Embed) -> discord.Embed:
    embed = discord.Embed(title=spec.title, description=spec.description or None, color=spec.color)
    for name, value, inline in spec.fields:
        embed.add_field(name=name, value=value or "—", inline=inline)
    if spec.footer:
        embed.set_footer(text=plain(spec.footer))  # a footer is plain text: no escapes shown
    if spec.thumbnail:
        embed.set_thumbnail(url=spec.thumbnail)
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


def _button(spec: Button, row: int) -> discord.ui.Item[Any]:
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=_shown(spec.label, MAX_BUTTON_LABEL),
        custom_id=spec.custom_id,
        style=STYLES[spec.style],
        emoji=spec.emoji,
        disabled=spec.disabled,
        row=row,
    )
    return _dynamic(button)


def _select(spec: Select, row: int) -> discord.ui.Item[Any]:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=spec.custom_id,
        placeholder=_shown(spec.placeholder, MAX_PLACEHOLDER),
        min_values=spec.min_values,
        max_values=spec.max_values,
        options=[
            discord.SelectOption(
                label=_shown(c.label, MAX_OPTION_LABEL),
                value=c.value,
                description=_shown(c.description, MAX_OPTION_LABEL) if c.description else None,
                emoji=c.emoji,
            )
            for c in spec.options
        ],
        row=row,
    )
    return _dynamic(select)


def _dynamic(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    # Wrapped, every item of a view is dynamic: discord.py keeps nothing per sent message.
    control = Control(item)
    control.row = item.row
    return control


def mentions(screen: Screen) -> discord.AllowedMentions:
    """Exactly the users the screen means to ping (usually none: edits never ping)."""
    if not screen.ping:
        return replies.NO_MENTIONS
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in screen.ping]
    )


def message_kwargs(screen: Screen) -> dict[str, Any]:
    """Arguments for an edit (or a channel send): content, embed and view, None clears them."""
    return {
        "content": replies.clip(screen.content) if screen.content else None,
        "embed": to_embed(screen.embed) if screen.embed else None,
        "view": to_view(screen) if screen.rows else None,
        "allowed_mentions": mentions(screen),
    }


def payload(screen: Screen) -> dict[str, Any]:
    """The message's JSON for Discord's REST API, built straight from the spec: the presenter
    edits tables and DMs with it, skipping discord.py's View and Message objects (each edit's
    answer would otherwise be parsed into a Message nobody reads)."""
    return {
        "content": replies.clip(screen.content) if screen.content else None,
        "embeds": [to_embed(screen.embed).to_dict()] if screen.embed else [],
        "components": [_row_json(row) for row in screen.rows],
        "allowed_mentions": mentions(screen).to_dict(),
    }


def _emoji_json(emoji: str | None) -> dict[str, Any] | None:
    return dict(discord.PartialEmoji.from_str(emoji).to_dict()) if emoji else None


def _row_json(row: Button | Select | list[Button]) -> dict[str, Any]:
    if isinstance(row, Select):
        return {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": row.custom_id,
                    "placeholder": _shown(row.placeholder, MAX_PLACEHOLDER),
                    "min_values": row.min_values,
                    "max_values": row.max_values,
                    "options": [
                        {
                            k: v
                            for k, v in (
                                ("label", _shown(c.label, MAX_OPTION_LABEL)),
                                ("value", c.value),
                                (
                                    "description",
                                    _shown(c.description, MAX_OPTION_LABEL)
                                    if c.description
                                    else None,
                                ),
                                ("emoji", _emoji_json(c.emoji)),
                            )
                            if v is not None
                        }
                        for c in row.options
                    ],
                }
            ],
        }
    buttons = row if isinstance(row, list) else [row]
    return {
        "type": 1,
        "components": [
            {
                k: v
                for k, v in (
                    ("type", 2),
                    ("style", STYLES[b.style].value),
                    ("label", _shown(b.label, MAX_BUTTON_LABEL)),
                    ("custom_id", b.custom_id),
                    ("disabled", b.disabled),
                    ("emoji", _emoji_json(b.emoji)),
                )
                if v is not None
            }
            for b in buttons
        ],
    }


# -- answering a click from the spec's JSON --------------------------------------------------
# The click path answers with the same raw JSON as the presenter's edits: discord.py's
# ``edit_message``/``send_message`` would build a View of Button objects to serialise and parse
# the answer into a Message nobody reads (bench/load.py: a tenth of the bot's CPU per click).
async def answer_update(interaction: discord.Interaction, screen: Screen) -> None:
    """Answer a component click by redrawing the message it is on (type 7)."""
    await _answer(interaction, InteractionResponseType.message_update, payload(screen))


async def answer_private(interaction: discord.Interaction, screen: Screen) -> None:
    """Answer with a new message only the clicker sees (type 4, ephemeral)."""
    data = {k: v for k, v in payload(screen).items() if v is not None}
    data["flags"] = discord.MessageFlags(ephemeral=True).value
    await _answer(interaction, InteractionResponseType.channel_message, data)


async def _answer(
    interaction: discord.Interaction, kind: InteractionResponseType, data: dict[str, Any]
) -> None:
    response = interaction.response
    await replies.settle(interaction)
    if response.type in (
        InteractionResponseType.deferred_message_update,
        InteractionResponseType.deferred_channel_message,
    ):
        # Acknowledged already ("working on it", or a slash command's "thinking…"): the same
        # answer by the interaction's webhook, the clicked message edited or a private
        # message sent.
        await _late_answer(interaction, kind, data)
        return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    await _callback(interaction, {"type": kind.value, "data": data})
    response._response_type = kind  # what discord.py's own answer would have recorded


async def _callback(interaction: discord.Interaction, body: dict[str, Any]) -> None:
    http = interaction._state.http
    await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=MultipartParameters(body, None, None),
    )


async def _late_answer(
    interaction: discord.Interaction, kind: InteractionResponseType, data: dict[str, Any]
) -> None:
    http = interaction._state.http
    adapter = async_context.get()
    # A redraw edits the clicked message (@original); anything else is a follow-up message.
    send = (
        adapter.edit_original_interaction_response
        if kind == InteractionResponseType.message_update
        else adapter.execute_webhook
    )
    await send(
        interaction.application_id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=data,
    )


async def answer_message(interaction: discord.Interaction, screen: Screen) -> int:
    """Answer with a new public message (a lobby); its id."""
    sent = await replies.public(interaction, **send_kwargs(screen))
    return sent or (await interaction.original_response()).id


def send_kwargs(screen: Screen) -> dict[str, Any]:
    """Arguments for an interaction reply, which takes no ``None`` for an absent part."""
    return {k: v for k, v in message_kwargs(screen).items() if v is not None}
