"""Keeps the card faces uploaded as the application's own emojis and says how to show each one.

    book = FaceBook(client, enabled=settings.card_emojis)
    book.start()            # in setup_hook (after login): returns at once
    book.text("uno_R7_v1")  # "<:uno_R7_v1:123>" once uploaded, None until then (show text)

At start it lists the application's emojis (one REST call), then uploads, one at a time in a
background task, only the faces that are missing: a changed face has a new artwork version in
its name, so it is missing too. discord.py waits out 429s by itself. Once a face's current
version is up, its older versions are deleted at once (one for one: an application near
Discord's emoji limit still has room for the next). An upload refused because another process
of the bot uploaded that face first is no failure: the list is read again. A failure of
Discord's side (a 5xx, a lost connection) is tried again later, 1, 2, 4... minutes on (up to
an hour); any other (a refusal) is logged once and ends the task: faces that are not up stay
text until the next start tries again.

A face deleted while the bot runs (in the Developer Portal, or replaced by another process of
the bot) makes Discord refuse every component that names it: ``refused`` hears that from the
caller, forgets every face (text at once) and lists them again, uploading what is missing. A
face in a newer artwork version than this release's (a newer release sharing the application,
in a rolling deploy) counts as up: shown as it is, never uploaded over nor deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence

import aiohttp
import discord

from cogs.faces import art, catalog

log = logging.getLogger(__name__)

# Discord: the application has as many emojis as it may. Its error list names 30008 "Maximum
# number of emojis reached" (30018 for animated ones); which one an application's limit gives is
# not documented, so either.
MAX_EMOJIS = (30008, 30018)
INVALID_FORM = 50035  # Discord: a field refused; an unknown emoji on a component is one
RETRY_FIRST = 60.0  # seconds before a sync that Discord's side broke is tried again, doubled
RETRY_MAX = 3600.0  # each time up to this
LOST_AGAIN = 600.0  # refusals for unknown faces this close together count towards giving up
GIVE_UP_AFTER = 3  # listings in a row followed by a refusal again: text until a restart
STALE = 3.0  # seconds after a listing in which a refusal is of a message drawn before it
# A refusal this soon after a listing that found every face is not a hiccup: Discord goes on
# refusing faces it lists, and it counts towards giving up (text then, not "click again").
HICCUP_AFTER = 60.0


def temporary(error: BaseException) -> bool:
    """A failure of Discord's side or of the network, or a rate limit discord.py gave up
    waiting out (429): worth trying again later."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(
        error, (discord.RateLimited, aiohttp.ClientError, OSError, asyncio.TimeoutError)
    )


def unknown_emoji(error: BaseException) -> bool:
    """Discord refused a message for a custom emoji it does not know (on a button or an
    option): its flattened errors say "Invalid emoji"."""
    return (
        isinstance(error, discord.HTTPException)
        and error.code == INVALID_FORM
        and "emoji" in error.text.lower()
    )


class FaceBook:
    """The faces available as emojis, by name; a ``catalog.FaceLookup`` for the renderers."""

    def __init__(
        self,
        client: discord.Client,
        *,
        enabled: bool = True,
        faces: Sequence[str] | None = None,
        draw: Callable[[str], bytes] = art.png,
    ) -> None:
        self.client = client
        self.enabled = enabled
        self.faces = list(faces if faces is not None else catalog.all_faces())
        self.uploaded: list[str] = []  # faces this instance uploaded, in order
        self.deleted: list[str] = []  # older versions this instance removed
        self.failed = False
        self._lost_at: float | None = None  # loop time of the last ``refused`` acted on
        self._lost_count = 0  # refusals acted on, each within LOST_AGAIN of the one before
        self._listing = False  # a listing after a refusal is under way
        self._listed_at: float | None = None  # loop time it ended
        self._all_found_at: float | None = None  # loop time a listing found every face
        self._draw = draw
        self._shown: dict[str, discord.Emoji] = {}  # stem -> emoji to show (newest version)
        self._old: list[discord.Emoji] = []  # older versions, deleted once replaced
        self._task: asyncio.Task[None] | None = None

    # --- lookups (cheap, no I/O: called while rendering every message) ---------------------

    def emoji(self, name: str) -> discord.Emoji | None:
        """The uploaded emoji for this face (an older artwork version while the new one is
        on its way), or None."""
        if not self.enabled:
            return None
        parts = catalog.split_name(name)
        return None if parts is None else self._shown.get(parts[0])

    def text(self, name: str) -> str | None:
        """``<:name:id>`` for message text, or None: show today's text instead."""
        emoji = self.emoji(name)
        return None if emoji is None else str(emoji)

    def partial(self, name: str) -> discord.PartialEmoji | None:
        """For a button or a select option."""
        emoji = self.emoji(name)
        return None if emoji is None else discord.PartialEmoji(name=emoji.name, id=emoji.id)

    def url(self, name: str) -> str | None:
        """The emoji's public image address, for an embed thumbnail."""
        emoji = self.emoji(name)
        return None if emoji is None else emoji.url

    @property
    def ready(self) -> bool:
        """Every face is up in its current version."""
        return all(self._is_current(name) for name in self.faces)

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the background sync once (after login: it needs the application id)."""
        if self.enabled and self._task is None:
            self._task = asyncio.create_task(self._run(), name="card-faces")

    async def wait(self) -> None:
        """Until the background sync has finished (tests and tools; the bot never waits)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def refused(self, error: BaseException) -> bool:
        """Discord refused a message: True if for a face it no longer has (the caller draws
        it again). Every face is then text until they are listed again (a second or so), and
        those missing are uploaded anew. A refusal during that listing, or just after it, is
        of a message drawn before it (DMs sent together): its retry draws from the new list.
        Refused that way after ``GIVE_UP_AFTER`` listings in a row that each found faces
        missing and uploaded them, the faces stay text until a restart: the listing itself is
        not to be trusted. A listing that finds every face counts nothing (Discord's hiccup)
        unless Discord refuses a face again within ``HICCUP_AFTER`` of it."""
        if not self.enabled or not unknown_emoji(error):
            return False
        moment = asyncio.get_running_loop().time()
        if self._listing or (self._listed_at is not None and moment - self._listed_at < STALE):
            return True
        self._shown = {}
        self._old = []
        if self._task is not None:
            self._task.cancel()
        found = self._all_found_at
        if found is not None and moment - found >= HICCUP_AFTER:
            self._lost_count = 0  # the last refusal was Discord's hiccup: every face was there
        self._all_found_at = None
        recent = self._lost_at is not None and moment - self._lost_at < LOST_AGAIN
        self._lost_count = self._lost_count + 1 if recent else 1
        self._lost_at = moment
        if self._lost_count > GIVE_UP_AFTER:
            self.enabled = False
            log.warning(
                "card faces: refused again as unknown; cards are shown as text until a restart"
            )
            return True
        log.warning(
            "card faces: Discord no longer knows one of them (deleted?); listing them again"
        )
        self._listing = True
        self._task = asyncio.create_task(self._run(), name="card-faces")
        return True

    async def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            try:
                await self.sync()
                return
            except Exception as exc:  # a background task: nobody else would see it
                if not temporary(exc):
                    self._fail("card faces: sync stopped", exc)
                    return
                self._fail("card faces: sync interrupted", exc, again=delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX)

    async def sync(self) -> None:
        """Lists, uploads what is missing, deletes what was replaced."""
        after_refusal = self._listing
        try:
            self._index(await self.client.fetch_application_emojis())
        finally:
            if self._listing:
                self._listing = False
                self._listed_at = asyncio.get_running_loop().time()
        missing = [name for name in self.faces if not self._is_current(name)]
        if after_refusal and not missing:
            # Every face is there: Discord's refusal was its own hiccup ("Invalid emoji" for
            # an emoji it has, which it says now and then), unless refusals go on right
            # after this listing (``refused``): then the listing is not to be trusted.
            self._all_found_at = asyncio.get_running_loop().time()
        if missing:
            log.info("card faces: uploading %d of %d", len(missing), len(self.faces))
        for position, name in enumerate(missing):
            if self._is_current(name):
                continue  # uploaded meanwhile by another process of this bot
            error = await self._upload(name)
            if isinstance(error, discord.HTTPException) and error.code in MAX_EMOJIS:
                # Full: make room with this face's own older version, then once more.
                if await self._make_room(name):
                    error = await self._upload(name)
            elif error is not None:
                # Several processes starting together upload the same faces, and the name of
                # one uploaded first is refused: read the list again before giving up.
                self._index(await self.client.fetch_application_emojis())
                if self._is_current(name):
                    continue
            if error is not None and temporary(error):
                raise error  # tried again later (``_run``), from a new listing
            if error is not None:
                self._fail(f"card faces: could not upload {name}", error)
                log.info("card faces: %d not uploaded, shown as text", len(missing) - position)
                return
            if not await self._delete_replaced(name):
                return
        if not await self._delete_replaced():
            return
        if missing:
            log.info("card faces: all %d up", len(self.faces))

    # --- steps -----------------------------------------------------------------------------

    def _index(self, emojis: Sequence[discord.Emoji]) -> None:
        """Remembers our faces among the application's emojis, newest version per card."""
        self._old = []
        best: dict[str, tuple[int, discord.Emoji]] = {}
        for emoji in emojis:
            parts = catalog.split_name(emoji.name)
            if parts is None:
                continue  # not ours: left alone
            stem, version = parts
            if stem not in best or version > best[stem][0]:
                if stem in best:
                    self._old.append(best[stem][1])
                best[stem] = (version, emoji)
            else:
                self._old.append(emoji)
        self._shown = {stem: emoji for stem, (_, emoji) in best.items()}

    def _is_current(self, name: str) -> bool:
        """This face is up in this artwork version, or a newer one: a newer release of the bot
        sharing the application (a rolling deploy) uploaded it, and it is shown as it is,
        never uploaded over nor deleted (the two releases would take turns deleting each
        other's faces)."""
        emoji = self.emoji(name)
        if emoji is None:
            return False
        shown, wanted = catalog.split_name(emoji.name), catalog.split_name(name)
        return shown is not None and wanted is not None and shown[1] >= wanted[1]

    async def _upload(self, name: str) -> Exception | None:
        """Uploads one face; the error if Discord refused it."""
        try:
            image = await asyncio.to_thread(self._draw, name)  # keeps the event loop free
            emoji = await self.client.create_application_emoji(name=name, image=image)
        except (discord.HTTPException, discord.MissingApplicationID) as exc:
            return exc
        parts = catalog.split_name(name)
        assert parts is not None
        replaced = self._shown.get(parts[0])
        if replaced is not None and replaced.id != emoji.id:
            self._old.append(replaced)
        self._shown[parts[0]] = emoji
        self.uploaded.append(name)
        return None

    async def _delete_replaced(self, name: str | None = None) -> bool:
        """Deletes older versions of faces whose current version is up (only of face ``name``
        if given). False if Discord refused a deletion (logged)."""
        for emoji in list(self._old):
            parts = catalog.split_name(emoji.name)
            if parts is None:
                continue
            current = f"{parts[0]}_v{catalog.ART_VERSION}"
            if (name is not None and current != name) or not self._is_current(current):
                continue
            if not await self._delete(emoji):
                return False
            self._old.remove(emoji)
        return True

    async def _make_room(self, name: str) -> bool:
        """The application is full: deletes the older version of face ``name`` that is shown
        now (text until the new one is up). False if there is none, or it was refused."""
        parts = catalog.split_name(name)
        assert parts is not None
        shown = self._shown.get(parts[0])
        if shown is None or shown.name == name or not await self._delete(shown):
            return False
        del self._shown[parts[0]]
        return True

    async def _delete(self, emoji: discord.Emoji) -> bool:
        try:
            await emoji.delete()
        except discord.NotFound:
            pass  # another process of this bot deleted it first
        except discord.HTTPException as exc:
            self._fail(f"card faces: could not delete {emoji.name}", exc)
            return False
        self.deleted.append(emoji.name)
        return True

    def _fail(self, what: str, exc: BaseException, again: float | None = None) -> None:
        """Logs the first failure as a warning; later ones only at debug level."""
        level = logging.DEBUG if self.failed else logging.WARNING
        until = "a restart" if again is None else f"the next try, in {again:.0f} s"
        log.log(level, "%s: %s; cards not up are shown as text until %s", what, exc, until)
        self.failed = True
