"""One way to answer a person: kind, private, within Discord's limits, and one error path.

Every refusal and every "something went wrong" goes through ``reply``; slash commands and
components report unexpected errors through ``report_error``, which logs what happened
without any secret (no action ids, no option values) and tells the person kindly.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import traceback
from typing import Any

import discord
from discord import app_commands

from cogs.render import spec
from db import SaveUncertain, StoreUnavailable

log = logging.getLogger("cardtable.errors")

MAX_CONTENT = 2000
OOPS = "Something went wrong on my side; nothing was changed. Please try again."
# Discord refused a card picture it no longer has (deleted in the Developer Portal): the faces
# are listed again, and cards show as text meanwhile.
# The database is away (a full disk, a lock held by a backup, PostgreSQL down): an outage, not
# a bug. Said once a minute in the owner's log, not with a stack at every click.
DATABASE_DOWN = (
    "The database isn't answering right now, so nothing was changed. Please try again in a moment."
)
OUTAGE_QUIET = 60.0
FACES_GONE = "Discord could not show the card pictures just now. Please click again."
NO_MENTIONS = discord.AllowedMentions.none()


# A click's handler that has not answered within ACK_WITHIN seconds (a database that is slow
# now) first tells Discord "working on it" (``components.watch``), or Discord forgets the click
# at 3 s and the player reads "This interaction failed" whatever happens to their move. Keys in
# ``interaction.extras``: the task sending that, and a mark that the real answer is under way
# (then no "working on it" may follow: Discord takes one first answer).
ACK_WITHIN = 2.0
DEFERRING = "cardtable.deferring"
ANSWERING = "cardtable.answering"


async def settle(interaction: discord.Interaction) -> None:
    """Before answering: wait for a "working on it" already on its way, and mark the answer
    as under way. Then ``interaction.response.is_done()`` says how to answer."""
    interaction.extras[ANSWERING] = True
    deferring = interaction.extras.get(DEFERRING)
    if deferring is not None:
        await deferring


class CardTree(app_commands.CommandTree):
    """Slash commands get the watchdog buttons get (``components.dispatch``): one that has
    not answered within ACK_WITHIN seconds (a slow database, many channel lookups) shows
    "thinking…" first, or Discord drops it at 3 s ("The application did not respond")."""

    async def _call(self, interaction: discord.Interaction) -> None:
        # Around discord.py's dispatch of every application command, as ``components.dispatch``
        # is around every click (autocomplete answers itself, and is never deferred).
        if interaction.type is not discord.InteractionType.application_command:
            await super()._call(interaction)
            return
        watch = asyncio.get_running_loop().call_later(ACK_WITHIN, _thinking, interaction)
        try:
            await super()._call(interaction)
        finally:
            watch.cancel()


def _thinking(interaction: discord.Interaction) -> None:
    if interaction.response.is_done() or ANSWERING in interaction.extras:
        return
    interaction.extras[DEFERRING] = asyncio.create_task(_think(interaction))


async def _think(interaction: discord.Interaction) -> None:
    # Private: most answers are. A public one (a lobby) resolves it first (``public``).
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as error:
        log.info("could not acknowledge interaction %s: %s", interaction.id, error)


def thinking(interaction: discord.Interaction) -> bool:
    """Whether the answer is due in place of a private "thinking…" (a slow slash command)."""
    return interaction.response.type == discord.InteractionResponseType.deferred_channel_message


async def public(interaction: discord.Interaction, **kwargs: Any) -> int | None:
    """Answer with a message everyone in the channel sees; its id when Discord gives it.
    After a private "thinking…", that is ended first (the first follow-up would take its
    place and stay private, whatever it asks for), and removed once the answer is out."""
    await settle(interaction)
    if not interaction.response.is_done():
        answered = await interaction.response.send_message(**kwargs)
        return answered.message_id
    ended = thinking(interaction)
    if ended:
        await interaction.edit_original_response(content="⬇️")
    try:
        sent = await interaction.followup.send(wait=True, **kwargs)
    finally:
        # Removed even when the answer failed: a "⬇️" pointing at nothing would stay.
        if ended:
            await _remove_thinking(interaction)
    return sent.id


async def _remove_thinking(interaction: discord.Interaction) -> None:
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as error:
        log.info("could not remove the thinking of interaction %s: %s", interaction.id, error)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Discord's limit on a message's text, by default."""
    return spec.clip(text, limit)


async def reply(interaction: discord.Interaction, text: str = "", **extra: Any) -> None:
    """A private (ephemeral) message to whoever caused the interaction; nothing is pinged.
    ``extra``: more of the message (an embed), or other arguments of discord.py's send."""
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_MENTIONS, **extra}
    if text:
        kwargs["content"] = clip(text)
    try:
        await settle(interaction)
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as error:
        # The interaction expired (10062) or Discord is failing: nobody left to tell.
        log.info("could not answer interaction %s: %s", interaction.id, error)


def describe(interaction: discord.Interaction) -> str:
    """What the person did, for a log line: the command, or the kind of control and its game.

    Never the action or option values: a War of Suits choice (``choose:9D``) is a secret.
    """
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    parts = custom_id.split(":")
    return f"component {parts[0]}:{parts[1]}" if len(parts) > 1 else "component"


def friendly(error: BaseException) -> str | None:
    """The text for an error the person can understand, or None for a real failure."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, SaveUncertain):
        return (
            "I lost the database while saving that, so it may or may not have been made. "
            "Look at the table (it is brought up to date once the database is back) before "
            "trying again."
        )
    if isinstance(error, StoreUnavailable):
        return DATABASE_DOWN
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works in a server channel, not in DMs."
    if isinstance(error, app_commands.MissingPermissions):
        return "You don't have permission to do that here."
    if isinstance(error, app_commands.TransformerError):
        return "One of those values isn't valid. Please pick from the choices offered."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that command here."
    return None


UNKNOWN_INTERACTION = 10062  # Discord forgot the interaction (answered after its 3 s)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one error path for slash commands and components alike."""
    original = getattr(error, "original", error)
    if isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
        # Too late to answer (a slow moment): nothing failed on our side, and nobody is
        # left to tell. The owner's log is not an error's place for it.
        log.info("%s: answered too late (the interaction expired)", describe(interaction))
        return
    text = friendly(error)
    faces = getattr(getattr(interaction, "client", None), "faces", None)
    if faces is not None and faces.refused(original):
        text = FACES_GONE  # logged by the faces; the next click draws the cards as text
    elif text is None:
        log_failure(describe(interaction), error, getattr(interaction, "client", None))
        text = OOPS
    elif isinstance(original, SaveUncertain):
        log.warning("%s: the database was lost while saving", describe(interaction))
    elif isinstance(original, StoreUnavailable):
        log_outage(getattr(interaction, "client", None), describe(interaction), original)
    await reply(interaction, text)


def log_outage(client: Any, what: str, error: StoreUnavailable) -> None:
    """The database unavailable: an ERROR (its message, no stack) at most once a minute per
    bot, the failures between at INFO; the bot's clock loop hears of it (it gives back
    deadlines passing while it lasts)."""
    moment = asyncio.get_running_loop().time()
    if moment - getattr(client, "outage_said_at", float("-inf")) >= OUTAGE_QUIET:
        if client is not None:
            client.outage_said_at = moment
        log.error("%s: the database is unavailable: %s", what, error)
    else:
        log.info("%s: the database is still unavailable", what)
    failed = getattr(client, "database_failed", None)
    if failed is not None:
        failed()


def log_failure(what: str, error: BaseException, client: Any = None) -> None:
    """Log an unexpected error with its stack but not its message, which may quote a secret
    (an exception about ``choose:9D`` would put a hidden card in the log). The database
    unavailable is an outage, not a bug: ``log_outage`` for ``client`` (the bot)."""
    original = getattr(error, "original", error)
    if isinstance(original, StoreUnavailable):
        log_outage(client, what, original)
        return
    stack = "".join(traceback.format_tb(original.__traceback__))
    # SQLite's own words ("database or disk is full") name no value: the one thing the
    # owner needs, kept.
    said = f" ({original})" if isinstance(original, sqlite3.OperationalError) else ""
    log.error("%s failed: %s%s\n%s", what, type(original).__name__, said, stack.rstrip())


def in_guild() -> Any:
    """A local check (Discord's own setting can be bypassed by a forged payload)."""

    def predicate(interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    return app_commands.check(predicate)
