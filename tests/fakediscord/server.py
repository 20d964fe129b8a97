"""A small wire-level fake of Discord (REST API v10 + gateway) for process-level bot tests.

The bot under test runs unmodified in its own process; only discord.py's two base URLs are pointed
here (see run_bot.py). Everything listens on 127.0.0.1 and nothing in this module opens an outbound
connection. The fake keeps every message the bot sends (with its edit history) so tests can assert
on what users would see, and it drives the bot like users do: by dispatching INTERACTION_CREATE.

It is deliberately strict where Discord is strict (3 s to acknowledge, one acknowledgement per
interaction, message size and component limits, closed DMs answer 50007) so that a bot passing
here does not fail on the real service for those reasons.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import json
import logging
import re
import secrets
import time
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

log = logging.getLogger("fakediscord")

JSON = dict[str, Any]
UserRef = int | str  # a user id, or a name given to the FakeDiscord constructor
T = TypeVar("T")

DISCORD_EPOCH_MS = 1_420_070_400_000
# Permissions.all() of discord.py 2.7: the fake grants everything so permission checks never
# depend on the fake's idea of roles.
ALL_PERMISSIONS = "2251799813685247"
EVERYONE_PERMISSIONS = "1071698660929"  # Discord's default @everyone set

# Message flags that matter here.
FLAG_SUPPRESS_EMBEDS = 1 << 2
NONCE_WINDOW = 120.0  # seconds Discord keeps a post's nonce ("the past few minutes")
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
_SETTABLE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
)

# A network round trip: how long a heartbeat waits for its ACK (see _Connection.ack_later).
HEARTBEAT_ACK_DELAY = 0.05

# Gateway intents that decide whether message events are dispatched.
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

# Interaction types and callback (response) types, as numbers on the wire.
INTERACTION_COMMAND = 2
INTERACTION_COMPONENT = 3
CALLBACK_PONG = 1
CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9

_SELECT_TYPES = {3, 5, 6, 7, 8}
_INTERACTIVE_TYPES = {2} | _SELECT_TYPES


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


class ApiError(Exception):
    """An error answer of the REST API: HTTP status plus Discord's JSON error code."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors or {}

    def body(self) -> JSON:
        body: JSON = {"code": self.code, "message": self.message}
        if self.errors:
            # Discord nests errors per field; discord.py flattens keys joined by dots.
            body["errors"] = {
                path: {"_errors": [{"code": "INVALID", "message": text}]}
                for path, text in self.errors.items()
            }
        return body


def _unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


class _Snowflakes:
    """Time-based, strictly increasing snowflakes, so ids sort by creation like Discord's."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def skip_ms(self) -> None:
        """The next id is at least a millisecond later (shard routing uses the time part)."""
        self._last += 1 << 22


# ---------------------------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "public_flags": 0,
            "flags": 0,
            "bot": self.bot,
        }


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int  # 0 guild text, 1 DM
    guild_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0

    def payload(self) -> JSON:
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class FakeMessage:
    """A message as users see it. `history` holds the earlier versions, oldest first."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[JSON] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)  # attachment id -> uploaded bytes
    flags: int = 0
    type: int = 0
    created_at: datetime = field(default_factory=_now)
    edited_at: datetime | None = None
    history: list[JSON] = field(default_factory=list)
    deleted: bool = False
    webhook_id: int | None = None
    interaction: JSON | None = None  # the deprecated `interaction` object
    interaction_metadata: JSON | None = None
    visible_to: int | None = None  # ephemeral messages: the only user who sees them
    reference: JSON | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response ("Bot is thinking...") not yet filled in."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def text(self) -> str:
        """Content plus the text of all embeds and v2 text displays, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields") or []:
                parts += [fld.get("name") or "", fld.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        parts += [
            c.get("content") or "" for c in iter_components(self.components) if c["type"] == 10
        ]
        return "\n".join(p for p in parts if p)

    def interactive(self) -> list[JSON]:
        """Buttons and selects, in display order."""
        return [c for c in iter_components(self.components) if c.get("type") in _INTERACTIVE_TYPES]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.interactive() if "custom_id" in c]

    def component(
        self,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        prefix: str | None = None,
    ) -> JSON:
        """The first button/select matching every criterion given; KeyError if none."""
        for comp in self.interactive():
            cid = comp.get("custom_id", "")
            if custom_id is not None and cid != custom_id:
                continue
            if prefix is not None and not cid.startswith(prefix):
                continue
            if label is not None and comp.get("label") != label:
                continue
            return comp
        raise KeyError(f"no component {custom_id=} {label=} {prefix=} on message {self.id}")

    def snapshot(self) -> JSON:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": copy.deepcopy(self.attachments),
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            data["interaction"] = self.interaction
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.reference is not None:
            data["message_reference"] = self.reference
        return data

    def event_payload(self) -> JSON:
        data = self.payload()
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


def iter_components(components: Iterable[JSON]) -> Iterator[JSON]:
    """Walks components depth first, through action rows, v2 containers, sections and labels."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from iter_components([comp[key]])


@dataclass
class CallbackRecord:
    """How the bot answered an interaction (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: JSON
    message: FakeMessage | None  # the message created or edited by this callback, if any
    elapsed: float  # seconds between dispatch and callback


class FakeInteraction:
    """One dispatched interaction; `await response()` waits for the bot's callback."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        type: int,
        user: FakeUser,
        channel: FakeChannel,
        name: str | None = None,
        message_id: int | None = None,
        custom_id: str | None = None,
    ) -> None:
        self.fake = fake
        self.id = fake._ids.next()
        self.token = "ix." + secrets.token_urlsafe(24)
        self.type = type
        self.user = user
        self.channel = channel
        self.name = name  # command name for application commands
        self.message_id = message_id  # the message a component was on
        self.custom_id = custom_id
        self.payload: JSON = {}
        self.dispatched_at = time.monotonic()
        self.callback: CallbackRecord | None = None
        self.original_id: int | None = None
        self.followup_ids: list[int] = []
        self.expired = False
        self.refused: list[JSON] = []  # error bodies of callbacks the fake rejected
        self._answered = asyncio.Event()

    def __repr__(self) -> str:
        what = self.name if self.type == INTERACTION_COMMAND else self.custom_id
        return f"<FakeInteraction {self.id} type={self.type} {what!r} user={self.user.name}>"

    async def response(self, timeout: float = 5.0) -> CallbackRecord:
        """The callback, once the bot has sent it; TimeoutError naming the interaction if not."""
        try:
            await asyncio.wait_for(self._answered.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"{self!r} got no callback within {timeout}s "
                f"(bot connected: {self.fake.is_connected}; refused callbacks: {self.refused})"
            ) from None
        assert self.callback is not None
        return self.callback

    @property
    def original(self) -> FakeMessage | None:
        """The @original message: the response message, or for 6/7 the component's message."""
        return None if self.original_id is None else self.fake.messages.get(self.original_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.messages[i] for i in self.followup_ids]


@dataclass
class _Fault:
    method: str
    pattern: re.Pattern[str]
    error: ApiError
    remaining: int | None
    retry_after: float


# ---------------------------------------------------------------------------------------------
# Gateway plumbing
# ---------------------------------------------------------------------------------------------


class _Connection:
    """One gateway websocket. Frames are compressed as the client asked in its URL."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.session: _Session | None = None
        self._lock = asyncio.Lock()  # compression state and frame order must agree
        self._acks: set[asyncio.Task[None]] = set()  # heartbeat ACKs on their way
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd: Any = None
        self._zstd_flush = 0
        if compress == "zstd-stream":
            # discord.py asks for zstd only when it can decompress it; answer in kind when we can,
            # otherwise plain text frames, which discord.py always accepts.
            with contextlib.suppress(ImportError):
                import zstandard  # type: ignore[import-not-found]

                self._zstd = zstandard.ZstdCompressor().compressobj()
                self._zstd_flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK

    def ack_later(self) -> None:
        """HEARTBEAT_ACK after a network round trip, as Discord's arrives. discord.py's
        keep-alive thread records a heartbeat's send time only once the send is done; an ACK
        back within microseconds (loopback) can be read first, and discord.py then warns that
        the websocket is a whole heartbeat interval (41 s) behind."""

        async def ack() -> None:
            await asyncio.sleep(HEARTBEAT_ACK_DELAY)
            await self.send({"op": 11, "d": None, "s": None, "t": None})

        task = asyncio.create_task(ack())
        self._acks.add(task)
        task.add_done_callback(self._acks.discard)

    async def send(self, payload: JSON) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                elif self._zstd is not None:
                    data = self._zstd.compress(text.encode()) + self._zstd.flush(self._zstd_flush)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except ConnectionError:
                log.debug("gateway send on a dead socket dropped")


@dataclass
class _Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    resumable: bool = True
    connection: _Connection | None = None
    # Sent dispatches, replayed on RESUME like Discord does for a reconnecting client.
    backlog: deque[tuple[int, JSON]] = field(default_factory=lambda: deque(maxlen=2000))


# ---------------------------------------------------------------------------------------------
# Message validation (a subset of Discord's limits that bots actually hit)
# ---------------------------------------------------------------------------------------------


def validate_message(message: JSON) -> dict[str, str]:
    """Problems Discord would answer with 50035 Invalid Form Body, as {field path: reason}."""
    errors: dict[str, str] = {}
    content = message.get("content") or ""
    flags = message.get("flags") or 0
    if len(content) > 2000:
        errors["content"] = "Must be 2000 or fewer in length."
    embeds = message.get("embeds") or []
    if len(embeds) > 10:
        errors["embeds"] = "Must be 10 or fewer in length."
    total = 0
    for i, embed in enumerate(embeds):
        texts = [
            (f"embeds.{i}.title", embed.get("title"), 256),
            (f"embeds.{i}.description", embed.get("description"), 4096),
            (f"embeds.{i}.footer.text", (embed.get("footer") or {}).get("text"), 2048),
            (f"embeds.{i}.author.name", (embed.get("author") or {}).get("name"), 256),
        ]
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors[f"embeds.{i}.fields"] = "Must be 25 or fewer in length."
        for j, fld in enumerate(fields):
            texts.append((f"embeds.{i}.fields.{j}.name", fld.get("name"), 256))
            texts.append((f"embeds.{i}.fields.{j}.value", fld.get("value"), 1024))
        for path, text, limit in texts:
            total += len(text or "")
            if len(text or "") > limit:
                errors[path] = f"Must be {limit} or fewer in length."
    if total > 6000:
        errors["embeds"] = "Embed size exceeds maximum size of 6000"

    components = message.get("components") or []
    seen: set[str] = set()
    if flags & FLAG_COMPONENTS_V2:
        if content or embeds:
            errors["content"] = "content and embeds cannot be used with IS_COMPONENTS_V2"
        if sum(1 for _ in iter_components(components)) > 40:
            errors["components"] = "Must be 40 or fewer in total."
        for n, comp in enumerate(iter_components(components)):
            if comp.get("type") in _INTERACTIVE_TYPES:
                _validate_interactive(comp, f"components[{n}]", errors, seen)
        return errors
    if len(components) > 5:
        errors["components"] = "Must be 5 or fewer in length."
    for i, row in enumerate(components):
        path = f"components.{i}"
        children = row.get("components") or []
        if row.get("type") != 1:
            errors[f"{path}.type"] = "Top-level components must be action rows."
            continue
        if not 1 <= len(children) <= 5:
            errors[f"{path}.components"] = "Must be between 1 and 5 in length."
        if any(c.get("type") in _SELECT_TYPES for c in children) and len(children) != 1:
            errors[f"{path}.components"] = "A select menu must be alone in its action row."
        for j, comp in enumerate(children):
            _validate_interactive(comp, f"{path}.components.{j}", errors, seen)
    return errors


def _known_emoji(mark: Any) -> bool:
    """A component's emoji as Discord takes it: a custom one (with an id), or a fully-qualified
    Unicode emoji (``▶️``, not ``▶`` nor a symbol such as ``🂠``)."""
    if not isinstance(mark, dict) or mark.get("id"):
        return True
    try:
        import emoji  # a test dependency: without it (a bare install) nothing is checked
    except ImportError:
        return True
    data = emoji.EMOJI_DATA.get(str(mark.get("name") or ""))
    return data is not None and data.get("status") == emoji.STATUS["fully_qualified"]


def _validate_interactive(comp: JSON, path: str, errors: dict[str, str], seen: set[str]) -> None:
    ctype = comp.get("type")
    if not _known_emoji(comp.get("emoji")):
        errors[f"{path}.emoji.name"] = "Invalid emoji"
    for k, opt in enumerate(comp.get("options") or []):
        if not _known_emoji(opt.get("emoji")):
            errors[f"{path}.options.{k}.emoji.name"] = "Invalid emoji"
    needs_custom_id = ctype in _SELECT_TYPES or (ctype == 2 and comp.get("style") not in (5, 6))
    if ctype == 2:
        if comp.get("style") not in (1, 2, 3, 4, 5, 6):
            errors[f"{path}.style"] = "Invalid button style."
        if comp.get("style") == 5 and not comp.get("url"):
            errors[f"{path}.url"] = "Link buttons need a url."
        if len(comp.get("label") or "") > 80:
            errors[f"{path}.label"] = "Must be 80 or fewer in length."
        if comp.get("style") != 6 and not (comp.get("label") or comp.get("emoji")):
            errors[f"{path}.label"] = "A button needs a label or an emoji."
    elif ctype in _SELECT_TYPES:
        if len(comp.get("placeholder") or "") > 150:
            errors[f"{path}.placeholder"] = "Must be 150 or fewer in length."
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= low <= high <= 25:
            errors[f"{path}.max_values"] = (
                "min_values/max_values must satisfy 0 <= min <= max <= 25."
            )
        if ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                errors[f"{path}.options"] = "Must be between 1 and 25 in length."
            if high > len(options):
                errors[f"{path}.max_values"] = "max_values exceeds the number of options."
            for k, opt in enumerate(options):
                for key in ("label", "value", "description"):
                    if len(opt.get(key) or "") > 100:
                        errors[f"{path}.options.{k}.{key}"] = "Must be 100 or fewer in length."
    if needs_custom_id:
        cid = comp.get("custom_id") or ""
        if not 1 <= len(cid) <= 100:
            errors[f"{path}.custom_id"] = "Must be between 1 and 100 in length."
        elif cid in seen:
            errors[f"{path}.custom_id"] = "Component custom id cannot be duplicated"
        seen.add(cid)


# ---------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------


@dataclass
class _Request:
    """What a REST handler needs: path parameters, query, decoded JSON body and uploads."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[tuple[str, str, bytes]]  # (form field name, filename, data)
    authorized: bool

    def int_param(self, name: str) -> int:
        return int(self.params[name])


_NO_CONTENT = object()
Handler = Callable[[_Request], Awaitable[Any]]


class FakeDiscord:
    """The fake Discord. `async with FakeDiscord() as fake:` or `await fake.start()` ... `close()`.

    One guild with text channel `#general` (`channel_id`), the bot, and users named by `users`
    (defaults alice, bob, carol, dave). `close_dms(user)` makes DMs to that user fail with 50007.

    Sharding: bots that identify with ``shard: [id, count]`` each get the events of their own
    shard, as on Discord: the guild's (its GUILD_CREATE, its interactions) go to shard
    ``(guild_id >> 22) % count``, DM interactions to shard 0. ``guild_shard`` picks the guild
    id so that it lands on that shard of ``shard_count``.
    """

    def __init__(
        self,
        users: Iterable[str] = ("alice", "bob", "carol", "dave"),
        *,
        token: str | None = None,
        heartbeat_interval_ms: int = 41_250,
        ack_deadline: float | None = 3.0,
        shard_count: int = 1,
        guild_shard: int | None = None,
    ) -> None:
        self._ids = _Snowflakes()
        self.shard_count = shard_count
        self.token = token  # None: any token is accepted
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_deadline = ack_deadline  # Discord's 3 s to acknowledge; None disables it
        # When an interaction's answer reached the benchmark's forwarder (bench/loadgen/
        # stamper.py), if it did: a stamp this event loop's other work cannot delay.
        self.answer_arrived: Callable[[int], float | None] | None = None
        # With it: how much later this loop got to each answer (interaction id -> seconds).
        self.answer_delays: dict[int, float] = {}
        self.bot = FakeUser(self._ids.next(), "cardtable", bot=True)
        self.application_id = self.bot.id  # as for every bot created since 2019
        self.owner = FakeUser(self._ids.next(), "owner")
        self.guild_id = self._ids.next()
        while guild_shard is not None and (self.guild_id >> 22) % shard_count != guild_shard:
            self._ids.skip_ms()
            self.guild_id = self._ids.next()
        self.bot_role_id = self._ids.next()  # the bot's managed role, holding all permissions
        self.users: dict[int, FakeUser] = {}
        for name in users:
            user = FakeUser(self._ids.next(), name)
            self.users[user.id] = user
        self.channels: dict[int, FakeChannel] = {}
        self.channel_id = self.add_text_channel("general").id
        self.joined_at = _now()
        self.dms_closed: set[int] = set()

        # What tests inspect.
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        # Synced application commands: guild id (None: global) -> command id -> command.
        self.commands: dict[int | None, dict[int, JSON]] = {}
        self.requests: list[tuple[str, str, int]] = []  # (method, path, status) of every REST call
        self.request_times: list[float] = []  # time.monotonic() of each answer in `requests`
        self.rejected: list[tuple[str, str, JSON]] = []  # 4xx answers: (method, path, error body)
        self.unhandled: list[tuple[str, str]] = []  # routes the fake does not implement
        self.failed_dms: list[tuple[int, JSON]] = []  # (user id, payload) refused with 50007
        self.presence: JSON | None = None
        self.identify_count = 0
        # The application's own emojis: id -> emoji payload, and each one's image bytes.
        self.app_emojis: dict[int, JSON] = {}
        self.app_emoji_images: dict[int, bytes] = {}
        self.app_emoji_uploads: list[str] = []  # names of accepted uploads, in order
        # Called with each message right after it is created or edited (benchmarks time edits).
        self.observers: list[Callable[[FakeMessage], None]] = []
        self.nonce_hits = 0  # posts answered with the message their nonce already created
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}  # -> (message, when)

        self._sessions: dict[str, _Session] = {}
        self._current: _Session | None = None
        self._connections: set[_Connection] = set()
        self._faults: list[_Fault] = []
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = self._route_table()

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/ws", self._gateway)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._not_api)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)  # loopback only, a free port
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("fake Discord listening on %s", self.base_url)
        return self

    async def close(self) -> None:
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """Give this to run_bot.py; REST lives under {base_url}/api/v10."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    # --- world setup --------------------------------------------------------------------------

    def add_text_channel(self, name: str) -> FakeChannel:
        """Adds a guild text channel (before the bot connects; later ones are not announced)."""
        channel = FakeChannel(
            self._ids.next(), name, 0, guild_id=self.guild_id, position=len(self.channels)
        )
        self.channels[channel.id] = channel
        return channel

    def add_bot_message(
        self,
        channel_id: int,
        *,
        content: str = "",
        embeds: list[JSON] | None = None,
        components: list[JSON] | None = None,
        flags: int = 0,
        visible_to: int | None = None,
    ) -> FakeMessage:
        """Puts a message authored by the bot into a channel, as if the bot had sent it, without
        a REST call or a gateway event (benchmarks replay clicks on copies of the bot's messages).
        """
        channel = self.channels[channel_id]
        message = FakeMessage(
            id=self._ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot,
            content=content,
            embeds=embeds or [],
            components=components or [],
            flags=flags,
            visible_to=visible_to,
        )
        return self._store(message)

    def user(self, ref: UserRef) -> FakeUser:
        """A user by id or by name."""
        if isinstance(ref, int):
            if ref == self.bot.id:
                return self.bot
            return self.users[ref]
        for user in self.users.values():
            if user.name == ref:
                return user
        raise KeyError(f"no user named {ref!r}")

    def user_id(self, name: str) -> int:
        return self.user(name).id

    def close_dms(self, ref: UserRef) -> None:
        """From now on, messages to this user's DM channel fail with 403 / 50007."""
        self.dms_closed.add(self.user(ref).id)

    def open_dms(self, ref: UserRef) -> None:
        self.dms_closed.discard(self.user(ref).id)

    def dm_channel(self, ref: UserRef) -> FakeChannel:
        """The DM channel with this user (created on demand, as Discord does)."""
        user = self.user(ref)
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return channel
        channel = FakeChannel(self._ids.next(), "", 1, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def inject_error(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        code: int = 0,
        message: str = "injected error",
        times: int | None = 1,
        retry_after: float = 0.05,
    ) -> None:
        """Makes the next `times` matching REST calls fail (None: all of them).

        `path_regex` is matched (re.fullmatch) against the path after /api/v10, for example
        r"/channels/\\d+/messages/\\d+". A 429 comes with the headers discord.py needs to retry.
        """
        self._faults.append(
            _Fault(
                method.upper(),
                re.compile(path_regex),
                ApiError(status, code, message),
                times,
                retry_after,
            )
        )

    def expire_tokens(self) -> None:
        """Ends the 15-minute life of every interaction token issued so far (401 / 50027)."""
        for interaction in self.interactions.values():
            interaction.expired = True

    # --- inspection ---------------------------------------------------------------------------

    def message(self, message_id: int) -> FakeMessage:
        return self.messages[message_id]

    def messages_in(
        self, channel_id: int | None = None, *, ephemeral: bool = True, deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages of a channel (default #general), oldest first."""
        channel_id = self.channel_id if channel_id is None else channel_id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id
            and (ephemeral or not m.ephemeral)
            and (deleted or not m.deleted)
        ]

    def dms_to(self, ref: UserRef) -> list[FakeMessage]:
        """Messages delivered to the user's DMs, oldest first (refused ones are in failed_dms)."""
        user = self.user(ref)
        ids = {c.id for c in self.channels.values() if c.type == 1 and c.recipient is user}
        return [m for m in self.messages.values() if m.channel_id in ids and not m.deleted]

    def ephemerals_for(self, ref: UserRef) -> list[FakeMessage]:
        user_id = self.user(ref).id
        return [m for m in self.messages.values() if m.visible_to == user_id and not m.deleted]

    def command(self, name: str, guild_id: int | None = None) -> JSON:
        """A synced command by name: guild commands of `guild_id` (default: ours), then global."""
        guild_id = self.guild_id if guild_id is None else guild_id
        for scope in (guild_id, None):
            for cmd in self.commands.get(scope, {}).values():
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        raise KeyError(f"no synced slash command {name!r}")

    @property
    def is_connected(self) -> bool:
        """True while a bot session is identified and its websocket is open."""
        session = self._current
        return bool(session and session.connection and not session.connection.ws.closed)

    @property
    def session_id(self) -> str | None:
        """The gateway session that gets dispatches: the last one identified (or resumed)."""
        return None if self._current is None else self._current.id

    @property
    def shards_connected(self) -> set[int]:
        """The shard ids with an identified session whose websocket is open."""
        return {
            s.shard[0]
            for s in self._sessions.values()
            if s.shard is not None and s.connection is not None and not s.connection.ws.closed
        }

    def _session_for(self, guild_id: int | None) -> _Session | None:
        """Who gets an event of this guild (None: a DM): the shard that owns it, if the bots
        are sharded; otherwise the session identified last."""
        sharded = [s for s in self._sessions.values() if s.shard is not None and s.resumable]
        if not sharded:
            return self._current
        count = sharded[-1].shard[1] if sharded[-1].shard else 1
        wanted = 0 if guild_id is None else (guild_id >> 22) % count
        owners = [s for s in sharded if s.shard is not None and s.shard[0] == wanted]
        live = [s for s in owners if s.connection is not None and not s.connection.ws.closed]
        found = live or owners
        return found[-1] if found else None

    def route_to(self, session_id: str) -> None:
        """Sends later dispatches (interactions, message events) to this identified session,
        so two bots can stay connected and take turns (benchmarks compare two bots)."""
        self._current = self._sessions[session_id]
        self._notify()

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Waits until predicate() is truthy (re-checked on every change) and returns its value."""

        async def poll() -> T:
            while True:
                changed = self._changed
                result = predicate()
                if result:
                    return result
                await changed.wait()

        try:
            return await asyncio.wait_for(poll(), timeout)
        except TimeoutError:
            raise TimeoutError(f"condition not met within {timeout}s") from None

    async def wait_connected(self, timeout: float = 15.0) -> None:
        await self.wait_for(lambda: self.is_connected, timeout)

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: not self.is_connected, timeout)

    async def wait_commands(self, *names: str, timeout: float = 15.0) -> None:
        """Waits until the bot has synced slash commands with these names."""

        def synced() -> bool:
            try:
                for name in names:
                    self.command(name)
            except KeyError:
                return False
            return True

        await self.wait_for(synced, timeout)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # --- driver: what users do ----------------------------------------------------------------

    async def slash(
        self,
        user: UserRef,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: int | None = None,
    ) -> FakeInteraction:
        """Runs a slash command as `user`. `command` may name a subcommand: "game start".

        Option values are converted to the types the bot registered (users and channels may be
        given as ids or names; users are resolved as Discord does), and choices and required
        options are enforced as the Discord client would.
        """
        who = self.user(user)
        channel = self.channels[self.channel_id if channel_id is None else channel_id]
        top, *path = command.split()
        cmd = self.command(top, channel.guild_id)
        resolved: JSON = {}
        leaf = cmd
        nested: list[JSON] = []
        chain: list[JSON] = []  # subcommand option objects, outermost first
        for name in path:
            sub = next((o for o in leaf.get("options") or [] if o["name"] == name), None)
            if sub is None or sub["type"] not in (1, 2):
                raise ValueError(f"{command!r}: {name!r} is not a subcommand")
            chain.append({"name": name, "type": sub["type"], "options": []})
            leaf = sub
        nested = [
            self._option(leaf, name, value, resolved) for name, value in (options or {}).items()
        ]
        given = set(options or {})
        for spec in leaf.get("options") or []:
            if spec.get("required") and spec["name"] not in given:
                raise ValueError(f"{command!r}: option {spec['name']!r} is required")
        for link in reversed(chain):
            link["options"] = nested
            nested = [link]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": nested}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        interaction = FakeInteraction(
            self, type=INTERACTION_COMMAND, user=who, channel=channel, name=command
        )
        await self._send_interaction(interaction, data)
        return interaction

    async def forge_slash(
        self,
        user: UserRef,
        command: str,
        options: list[JSON],
        *,
        channel_id: int | None = None,
    ) -> FakeInteraction:
        """Sends an application command exactly as given, unchecked: what a modified client
        (or a bug in Discord) could send. `options` is the wire list, subcommands included;
        the command is looked up by name in the guild, or among all commands for a DM."""
        channel = self.channels[self.channel_id if channel_id is None else channel_id]
        scopes = [channel.guild_id] if channel.guild_id is not None else list(self.commands)
        cmd = next(
            c
            for scope in scopes
            for c in self.commands.get(scope, {}).values()
            if c["name"] == command
        )
        data: JSON = {"id": cmd["id"], "name": command, "type": 1, "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        interaction = FakeInteraction(
            self, type=INTERACTION_COMMAND, user=self.user(user), channel=channel, name=command
        )
        await self._send_interaction(interaction, data)
        return interaction

    async def click(self, user: UserRef, message_id: int, custom_id: str) -> FakeInteraction:
        """Clicks the button `custom_id` on a message, which must currently show it enabled."""
        message = self.messages[message_id]
        comp = self._clickable(user, message, custom_id)
        if comp.get("type") != 2:
            raise ValueError(f"{custom_id!r} is not a button")
        return await self._component(user, message, custom_id, 2, {})

    async def select(
        self, user: UserRef, message_id: int, custom_id: str, values: list[Any]
    ) -> FakeInteraction:
        """Chooses `values` in a select menu (option values; ids or names for user selects)."""
        message = self.messages[message_id]
        comp = self._clickable(user, message, custom_id)
        ctype = comp.get("type")
        if ctype not in _SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}..{high} values, not {len(values)}")
        extra: JSON = {}
        if ctype == 3:
            allowed = {o["value"] for o in comp.get("options") or []}
            if not set(values) <= allowed:
                raise ValueError(f"{custom_id!r}: {set(values) - allowed} are not options")
            extra["values"] = [str(v) for v in values]
        else:
            resolved: JSON = {}
            spec = {"type": {5: 6, 6: 8, 7: 9, 8: 7}[ctype]}
            extra["values"] = [self._resolve_value(spec, v, resolved) for v in values]
            extra["resolved"] = resolved
        return await self._component(user, message, custom_id, ctype, extra)

    async def say(
        self, user: UserRef, content: str, *, channel_id: int | None = None
    ) -> FakeMessage:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        channel = self.channels[self.channel_id if channel_id is None else channel_id]
        message = self._store(
            FakeMessage(
                self._ids.next(), channel.id, channel.guild_id, self.user(user), content=content
            )
        )
        await self._message_event("MESSAGE_CREATE", message)
        return message

    async def kill_connections(self, *, resumable: bool = True, code: int = 4000) -> None:
        """Drops every gateway connection; with resumable=False a RESUME is then refused."""
        if not resumable:
            for session in self._sessions.values():
                session.resumable = False
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=code, message=b"fake: connection killed")

    async def request_reconnect(self) -> None:
        """Sends op 7 RECONNECT; the bot reconnects and resumes."""
        if self._current and self._current.connection:
            await self._current.connection.send({"op": 7, "d": None, "s": None, "t": None})

    def _clickable(self, user: UserRef, message: FakeMessage, custom_id: str) -> JSON:
        # The Discord client only lets people use components it shows: refuse what it would not.
        if message.deleted:
            raise ValueError(f"message {message.id} is deleted")
        if message.visible_to is not None and message.visible_to != self.user(user).id:
            raise ValueError(f"message {message.id} is ephemeral for someone else")
        try:
            comp = message.component(custom_id=custom_id)
        except KeyError:
            shown = message.custom_ids()
            raise ValueError(f"message {message.id} has no {custom_id!r}; it has {shown}") from None
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return comp

    async def _component(
        self, user: UserRef, message: FakeMessage, custom_id: str, ctype: int, extra: JSON
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            self,
            type=INTERACTION_COMPONENT,
            user=self.user(user),
            channel=self.channels[message.channel_id],
            message_id=message.id,
            custom_id=custom_id,
        )
        data = {"custom_id": custom_id, "component_type": ctype, **extra}
        await self._send_interaction(interaction, data, message)
        return interaction

    def _option(self, leaf: JSON, name: str, value: Any, resolved: JSON) -> JSON:
        spec = next((o for o in leaf.get("options") or [] if o["name"] == name), None)
        if spec is None:
            known = [o["name"] for o in leaf.get("options") or []]
            raise ValueError(f"unknown option {name!r}; the command has {known}")
        wire = self._resolve_value(spec, value, resolved)
        choices = spec.get("choices")
        if choices and wire not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices {choices}")
        return {"name": name, "type": spec["type"], "value": wire}

    def _resolve_value(self, spec: JSON, value: Any, resolved: JSON) -> Any:
        """Converts an option value to its wire form and fills `resolved` for entities."""
        otype = spec["type"]
        if otype == 3:
            return str(value)
        if otype == 4:
            return int(value)
        if otype == 5:
            return bool(value)
        if otype == 10:
            return float(value)
        if otype in (6, 9):  # user, mentionable
            user = self.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = self._member_payload(user)
            member.pop("user")
            member["permissions"] = ALL_PERMISSIONS
            resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if otype == 7:  # channel
            channel = self._channel_by_ref(value)
            info = {k: channel.payload()[k] for k in ("id", "type", "name")}
            resolved.setdefault("channels", {})[str(channel.id)] = {
                **info,
                "permissions": ALL_PERMISSIONS,
            }
            return str(channel.id)
        if otype == 8:  # role: only @everyone exists
            resolved.setdefault("roles", {})[str(self.guild_id)] = self._everyone_role()
            return str(self.guild_id)
        raise ValueError(f"option type {otype} is not supported by the fake")

    def _channel_by_ref(self, ref: int | str) -> FakeChannel:
        if isinstance(ref, int):
            return self.channels[ref]
        return next(c for c in self.channels.values() if c.name == ref)

    async def _send_interaction(
        self, interaction: FakeInteraction, data: JSON, message: FakeMessage | None = None
    ) -> None:
        channel, user = interaction.channel, interaction.user
        session = self._session_for(channel.guild_id)
        if session is None:
            raise RuntimeError("no bot has connected to the fake gateway")
        payload: JSON = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": interaction.type,
            "data": data,
            "token": interaction.token,
            "version": 1,
            "locale": "en-US",
            "app_permissions": ALL_PERMISSIONS,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel": channel.payload(),
            "channel_id": str(channel.id),
        }
        if channel.guild_id is not None:
            member = self._member_payload(user)
            member["permissions"] = EVERYONE_PERMISSIONS
            payload.update(
                guild_id=str(self.guild_id),
                guild={"id": str(self.guild_id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member,
                context=0,
                authorizing_integration_owners={"0": str(self.guild_id)},
            )
        else:
            payload.update(
                user=user.payload(), context=1, authorizing_integration_owners={"0": "0"}
            )
        if message is not None:
            payload["message"] = message.payload()
        interaction.payload = payload
        self.interactions[interaction.id] = interaction
        interaction.dispatched_at = time.monotonic()
        await self._dispatch(session, "INTERACTION_CREATE", payload)

    # --- gateway ------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(timeout=2.0, compress=False, max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws, request.query.get("compress"))
        self._connections.add(conn)
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"the fake speaks JSON only")
                return ws
            await conn.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue  # discord.py only sends text frames
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"decode error")
                    break
                await self._on_frame(conn, frame)
        finally:
            self._connections.discard(conn)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            self._notify()
        return ws

    async def _on_frame(self, conn: _Connection, frame: JSON) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:  # HEARTBEAT
            conn.ack_later()
        elif op == 2:  # IDENTIFY
            await self._identify(conn, data or {})
        elif op == 6:  # RESUME
            await self._resume(conn, data or {})
        elif op == 3:  # PRESENCE UPDATE
            self.presence = data
        elif op == 8:  # REQUEST GUILD MEMBERS
            await self._members_chunk(conn, data or {})
        else:
            log.info("fake gateway ignores op %s", op)

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if self.token is not None and data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = _Session(secrets.token_hex(16), int(data.get("intents", 0)), data.get("shard"))
        self._sessions[session.id] = session
        self._current = session
        conn.session = session
        session.connection = conn
        self.identify_count += 1
        ready: JSON = {
            "v": 10,
            "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        owns_guild = True
        if session.shard is not None:
            ready["shard"] = session.shard
            shard_id, count = session.shard
            owns_guild = (self.guild_id >> 22) % count == shard_id
            if not owns_guild:
                ready["guilds"] = []
        await self._dispatch(session, "READY", ready)
        if owns_guild:
            await self._dispatch(session, "GUILD_CREATE", self._guild_payload())
        self._notify()

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        seq = data.get("seq") or 0
        if session is None or not session.resumable or seq > session.seq:
            # d=false: the session cannot be resumed, the client must IDENTIFY again.
            await conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        conn.session = session
        session.connection = conn
        self._current = session
        for frame_seq, frame in list(session.backlog):
            if frame_seq > seq:
                await conn.send(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fakediscord"]})
        self._notify()

    async def _members_chunk(self, conn: _Connection, data: JSON) -> None:
        if conn.session is None:
            return
        members = [self._member_payload(u) for u in [self.bot, *self.users.values()]]
        wanted = {str(i) for i in data.get("user_ids") or []}
        if wanted:
            members = [m for m in members if m["user"]["id"] in wanted]
        query = data.get("query") or ""
        members = [m for m in members if m["user"]["username"].startswith(query)]
        if data.get("limit"):
            members = members[: data["limit"]]
        chunk: JSON = {
            "guild_id": str(self.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch(self, session: _Session, event: str, data: JSON) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append((session.seq, frame))
        if session.connection is not None:
            await session.connection.send(frame)

    async def _message_event(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE as Discord sends them, if the bot asked for them."""
        session = self._session_for(message.guild_id)
        if session is None or message.ephemeral:
            return
        wanted = INTENT_GUILD_MESSAGES if message.guild_id is not None else INTENT_DIRECT_MESSAGES
        if not session.intents & wanted:
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        else:
            data = message.event_payload()
        await self._dispatch(session, event, data)

    def _everyone_role(self) -> JSON:
        return {
            "id": str(self.guild_id),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0,
            "permissions": EVERYONE_PERMISSIONS,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def _bot_role(self) -> JSON:
        return {
            **self._everyone_role(),
            "id": str(self.bot_role_id),
            "name": "cardtable",
            "position": 1,
            "permissions": ALL_PERMISSIONS,
            "managed": True,
            "tags": {"bot_id": str(self.bot.id)},
        }

    def _member_payload(self, user: FakeUser) -> JSON:
        return {
            "user": user.payload(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(self.bot_role_id)] if user is self.bot else [],
            "joined_at": _iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }

    def _guild_payload(self) -> JSON:
        members = [self._member_payload(u) for u in [self.bot, *self.users.values()]]
        guild_channels = [c.payload() for c in self.channels.values() if c.guild_id is not None]
        return {
            "id": str(self.guild_id),
            "name": "Fake Guild",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [self._everyone_role(), self._bot_role()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "max_members": 500_000,
            "max_video_channel_users": 25,
            "unavailable": False,
            "large": False,
            "lazy": True,
            "joined_at": _iso(self.joined_at),
            # member_count == len(members) makes discord.py consider the guild chunked already.
            "member_count": len(members),
            "members": members,
            "channels": guild_channels,
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # --- REST plumbing ------------------------------------------------------------------------

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        app = r"/applications/(?P<app_id>\d+)"
        guild_cmds = app + r"/guilds/(?P<guild_id>\d+)/commands"
        hook = r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)"
        msg = r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/(?P<user_id>\d+)", self._get_user),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", app + r"/commands", self._list_commands),
            ("PUT", app + r"/commands", self._put_commands),
            ("POST", app + r"/commands", self._post_command),
            ("GET", app + r"/commands/(?P<command_id>\d+)", self._get_command),
            ("PATCH", app + r"/commands/(?P<command_id>\d+)", self._patch_command),
            ("DELETE", app + r"/commands/(?P<command_id>\d+)", self._delete_command),
            ("GET", guild_cmds, self._list_commands),
            ("PUT", guild_cmds, self._put_commands),
            ("POST", guild_cmds, self._post_command),
            ("GET", guild_cmds + r"/permissions", self._empty_list),
            ("GET", guild_cmds + r"/(?P<command_id>\d+)", self._get_command),
            ("PATCH", guild_cmds + r"/(?P<command_id>\d+)", self._patch_command),
            ("DELETE", guild_cmds + r"/(?P<command_id>\d+)", self._delete_command),
            ("GET", app + r"/entitlements", self._empty_list),
            ("GET", app + r"/skus", self._empty_list),
            ("GET", app + r"/emojis", self._list_app_emojis),
            ("POST", app + r"/emojis", self._post_app_emoji),
            ("GET", app + r"/emojis/(?P<emoji_id>\d+)", self._get_app_emoji),
            ("PATCH", app + r"/emojis/(?P<emoji_id>\d+)", self._patch_app_emoji),
            ("DELETE", app + r"/emojis/(?P<emoji_id>\d+)", self._delete_app_emoji),
            (
                "POST",
                r"/interactions/(?P<interaction_id>\d+)/(?P<token>[^/]+)/callback",
                self._callback,
            ),
            ("POST", hook, self._webhook_post),
            ("GET", hook + r"/messages/(?P<message_id>@original|\d+)", self._webhook_get),
            ("PATCH", hook + r"/messages/(?P<message_id>@original|\d+)", self._webhook_patch),
            ("DELETE", hook + r"/messages/(?P<message_id>@original|\d+)", self._webhook_delete),
            ("GET", r"/channels/(?P<channel_id>\d+)", self._get_channel),
            ("DELETE", r"/channels/(?P<channel_id>\d+)", self._get_channel),  # closing a DM
            ("POST", r"/channels/(?P<channel_id>\d+)/typing", self._no_content),
            ("GET", r"/channels/(?P<channel_id>\d+)/messages", self._list_messages),
            ("POST", r"/channels/(?P<channel_id>\d+)/messages", self._post_message),
            ("GET", msg, self._get_message),
            ("PATCH", msg, self._patch_message),
            ("DELETE", msg, self._delete_message),
            ("GET", r"/guilds/(?P<guild_id>\d+)", self._get_guild),
            ("GET", r"/guilds/(?P<guild_id>\d+)/channels", self._get_guild_channels),
            ("GET", r"/guilds/(?P<guild_id>\d+)/roles", self._get_roles),
            ("GET", r"/guilds/(?P<guild_id>\d+)/members", self._list_members),
            ("GET", r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)", self._get_member),
        ]
        return [(m, re.compile(p), h) for m, p, h in table]

    @staticmethod
    def _json_response(
        body: Any, status: int = 200, headers: dict[str, str] | None = None
    ) -> web.Response:
        # discord.py only decodes JSON when Content-Type is exactly "application/json".
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    async def _not_api(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path))
        return self._json_response({"code": 0, "message": "404: Not Found"}, 404)

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        response = await self._handle(request, method, path)
        self.requests.append((method, path, response.status))
        self.request_times.append(time.monotonic())
        if response.status >= 400 and response.body is not None:
            assert isinstance(response.body, bytes)
            self.rejected.append((method, path, json.loads(response.body)))
        self._notify()
        return response

    async def _handle(self, request: web.Request, method: str, path: str) -> web.Response:
        for fault in self._faults:
            if fault.method == method and fault.pattern.fullmatch(path) and fault.remaining != 0:
                if fault.remaining is not None:
                    fault.remaining -= 1
                return self._fault_response(fault)
        for route_method, pattern, handler in self._routes:
            match = pattern.fullmatch(path)
            if match is None or route_method != method:
                continue
            try:
                req = await self._parse(request, method, path, match.groupdict())
                if not req.authorized and not path.startswith(("/interactions/", "/webhooks/")):
                    raise ApiError(401, 0, "401: Unauthorized")
                result = await handler(req)
            except ApiError as exc:
                return self._json_response(exc.body(), exc.status)
            if result is _NO_CONTENT:
                return web.Response(status=204)
            return self._json_response(result)
        self.unhandled.append((method, path))
        log.warning("fake Discord has no route for %s %s", method, path)
        return self._json_response({"code": 0, "message": "404: Not Found"}, 404)

    def _fault_response(self, fault: _Fault) -> web.Response:
        if fault.error.status == 429:
            # discord.py retries a 429 only when it looks like Discord's (Via header, JSON body).
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            }
            headers = {"Via": "1.1 google", "Retry-After": str(fault.retry_after)}
            return self._json_response(body, 429, headers)
        return self._json_response(fault.error.body(), fault.error.status)

    async def _parse(
        self, request: web.Request, method: str, path: str, params: dict[str, str]
    ) -> _Request:
        body: Any = None
        files: list[tuple[str, str, bytes]] = []
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    break  # a nested multipart: Discord takes none
                data = await part.read()
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append((name, part.filename or name, bytes(data)))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
        auth = request.headers.get("Authorization", "")
        authorized = auth.startswith("Bot ") and (self.token is None or auth[4:] == self.token)
        return _Request(method, path, params, dict(request.query), body, files, authorized)

    # --- REST: users, gateway, application ----------------------------------------------------

    async def _get_me(self, req: _Request) -> JSON:
        return {**self.bot.payload(), "verified": True, "mfa_enabled": False, "email": None}

    async def _get_user(self, req: _Request) -> JSON:
        try:
            return self.user(req.int_param("user_id")).payload()
        except KeyError:
            raise _unknown("User", 10013) from None

    async def _create_dm(self, req: _Request) -> JSON:
        # Opening a DM works even when the user's DMs are closed; sending into it is what fails.
        try:
            user = self.user(int((req.body or {}).get("recipient_id", 0)))
        except (KeyError, ValueError):
            raise ApiError(400, 50033, "Invalid Recipient(s)") from None
        return self.dm_channel(user.id).payload()

    async def _get_gateway(self, req: _Request) -> JSON:
        return {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    async def _get_application(self, req: _Request) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,  # else discord.py warns: no gateway interactions
            "bot": self.bot.payload(),
            "approximate_guild_count": 1,
            "integration_types_config": {"0": {}},
        }

    # --- REST: application commands ---------------------------------------------------------

    def _command_scope(self, req: _Request) -> int | None:
        if req.int_param("app_id") != self.application_id:
            raise ApiError(
                403, 20012, "You are not authorized to perform this action on this application"
            )
        if "guild_id" not in req.params:
            return None
        if req.int_param("guild_id") != self.guild_id:
            raise ApiError(403, 50001, "Missing Access")
        return self.guild_id

    def _make_command(self, scope: int | None, spec: JSON, old: JSON | None) -> JSON:
        if not spec.get("name"):
            raise ApiError(400, 50035, "Invalid Form Body", {"name": "This field is required"})
        ctype = spec.get("type", 1)
        if ctype == 1 and not 1 <= len(spec.get("description") or "") <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", {"description": "1-100 characters"})
        cmd = {
            "default_member_permissions": None,
            "nsfw": False,
            "options": [],
            "integration_types": [0],
            "contexts": None,
            **spec,
            # Discord keeps a command's id when a bulk overwrite re-submits the same name.
            "id": old["id"] if old else str(self._ids.next()),
            "application_id": str(self.application_id),
            "version": str(self._ids.next()),
            "type": ctype,
            "description": spec.get("description", ""),
        }
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    async def _list_commands(self, req: _Request) -> list[JSON]:
        return list(self.commands.get(self._command_scope(req), {}).values())

    async def _put_commands(self, req: _Request) -> list[JSON]:
        scope = self._command_scope(req)
        old = {(c["name"], c["type"]): c for c in self.commands.get(scope, {}).values()}
        new = [
            self._make_command(scope, s, old.get((s["name"], s.get("type", 1)))) for s in req.body
        ]
        self.commands[scope] = {int(c["id"]): c for c in new}
        return new

    async def _post_command(self, req: _Request) -> JSON:
        scope = self._command_scope(req)
        cmds = self.commands.setdefault(scope, {})
        spec = req.body or {}
        old = next(
            (
                c
                for c in cmds.values()
                if (c["name"], c["type"]) == (spec.get("name"), spec.get("type", 1))
            ),
            None,
        )
        cmd = self._make_command(scope, spec, old)
        cmds[int(cmd["id"])] = cmd
        return cmd

    def _find_command(self, req: _Request) -> tuple[dict[int, JSON], JSON]:
        cmds = self.commands.get(self._command_scope(req), {})
        try:
            return cmds, cmds[req.int_param("command_id")]
        except KeyError:
            raise _unknown("application command", 10063) from None

    async def _get_command(self, req: _Request) -> JSON:
        return self._find_command(req)[1]

    async def _patch_command(self, req: _Request) -> JSON:
        _, cmd = self._find_command(req)
        cmd.update(req.body or {})
        cmd["version"] = str(self._ids.next())
        return cmd

    async def _delete_command(self, req: _Request) -> object:
        cmds, cmd = self._find_command(req)
        del cmds[int(cmd["id"])]
        return _NO_CONTENT

    async def _empty_list(self, req: _Request) -> list[JSON]:
        return []

    async def _no_content(self, req: _Request) -> object:
        return _NO_CONTENT

    # --- REST: application emojis ------------------------------------------------------------

    def add_app_emoji(self, name: str, image: bytes = b"\x89PNG\r\n\x1a\n") -> JSON:
        """Gives the application an emoji without a REST call (an earlier run's upload)."""
        return self._store_app_emoji(name, image)

    def _store_app_emoji(self, name: str, image: bytes) -> JSON:
        emoji: JSON = {
            "id": str(self._ids.next()),
            "name": name,
            "roles": [],
            "user": self.bot.payload(),
            "require_colons": True,
            "managed": False,
            "animated": image.startswith(b"GIF8"),
            "available": True,
        }
        self.app_emojis[int(emoji["id"])] = emoji
        self.app_emoji_images[int(emoji["id"])] = image
        return emoji

    def _app_emoji(self, req: _Request) -> JSON:
        self._command_scope(req)  # the application must be ours
        emoji = self.app_emojis.get(req.int_param("emoji_id"))
        if emoji is None:
            raise _unknown("Emoji", 10014)
        return emoji

    def _app_emoji_name_error(self, name: Any, keep: int | None = None) -> str | None:
        if not isinstance(name, str) or not 2 <= len(name) <= 32:
            return "Must be between 2 and 32 in length."
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            return "String value did not match validation regex."
        if any(e["name"] == name and int(e["id"]) != keep for e in self.app_emojis.values()):
            return "An application emoji with this name already exists."
        return None

    @staticmethod
    def _app_emoji_image(image: Any) -> tuple[bytes | None, str | None]:
        """Decodes a data URI as Discord does: PNG, JPEG, GIF or WebP, at most 256 KiB."""
        if not isinstance(image, str):
            return None, "Invalid image data"
        match = re.fullmatch(r"data:image/(png|jpeg|gif|webp);base64,(.*)", image, re.S)
        if match is None:
            return None, "Invalid image data"
        try:
            data = base64.b64decode(match[2], validate=True)
        except ValueError:
            return None, "Invalid image data"
        magic = {"png": b"\x89PNG", "jpeg": b"\xff\xd8\xff", "gif": b"GIF8", "webp": b"RIFF"}
        if not data.startswith(magic[match[1]]):
            return None, "Invalid image data"
        if len(data) > 256 * 1024:
            return None, "File cannot be larger than 256.0 kb."
        return data, None

    async def _list_app_emojis(self, req: _Request) -> JSON:
        self._command_scope(req)
        return {"items": list(self.app_emojis.values())}

    async def _get_app_emoji(self, req: _Request) -> JSON:
        return self._app_emoji(req)

    async def _post_app_emoji(self, req: _Request) -> JSON:
        self._command_scope(req)
        body = req.body if isinstance(req.body, dict) else {}
        errors: dict[str, str] = {}
        name_error = self._app_emoji_name_error(body.get("name"))
        if name_error:
            errors["name"] = name_error
        image, image_error = self._app_emoji_image(body.get("image"))
        if image_error:
            errors["image"] = image_error
        if errors or image is None:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        if len(self.app_emojis) >= 2000:
            raise ApiError(400, 30008, "Maximum number of emojis reached (2000)")
        self.app_emoji_uploads.append(body["name"])
        return self._store_app_emoji(body["name"], image)

    async def _patch_app_emoji(self, req: _Request) -> JSON:
        emoji = self._app_emoji(req)
        name = (req.body or {}).get("name", emoji["name"])
        error = self._app_emoji_name_error(name, keep=int(emoji["id"]))
        if error:
            raise ApiError(400, 50035, "Invalid Form Body", {"name": error})
        emoji["name"] = name
        return emoji

    async def _delete_app_emoji(self, req: _Request) -> object:
        emoji = self._app_emoji(req)
        del self.app_emojis[int(emoji["id"])]
        del self.app_emoji_images[int(emoji["id"])]
        return _NO_CONTENT

    # --- REST: interactions -------------------------------------------------------------------

    async def _callback(self, req: _Request) -> object:
        interaction = self.interactions.get(req.int_param("interaction_id"))
        if interaction is None or interaction.token != req.params["token"]:
            raise _unknown("interaction", 10062)
        try:
            return await self._answer(interaction, req)
        except ApiError as exc:
            interaction.refused.append(exc.body())
            raise

    async def _answer(self, interaction: FakeInteraction, req: _Request) -> object:
        arrived = self.answer_arrived(interaction.id) if self.answer_arrived else None
        now = time.monotonic()
        if arrived is not None:
            self.answer_delays[interaction.id] = now - arrived
        elapsed = (now if arrived is None else arrived) - interaction.dispatched_at
        if interaction.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self.ack_deadline is not None and elapsed > self.ack_deadline:
            # Discord forgets an interaction that is not acknowledged within 3 seconds.
            log.warning(
                "%r acknowledged after %.2fs: refused as Discord would", interaction, elapsed
            )
            raise _unknown("interaction", 10062)
        body = req.body or {}
        rtype = body.get("type")
        data: JSON = body.get("data") or {}
        component = interaction.type == INTERACTION_COMPONENT
        message: FakeMessage | None = None

        if rtype in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            loading = rtype == CALLBACK_DEFERRED_MESSAGE
            message = self._new_message(
                interaction.channel,
                {"flags": data.get("flags", 0)} if loading else data,
                req.files,
                ephemeral_to=interaction.user.id if data.get("flags", 0) & FLAG_EPHEMERAL else None,
                loading=loading,
            )
            message.webhook_id = self.application_id
            message.type = 0 if component else 20  # 20: CHAT_INPUT_COMMAND reply
            self._attach_interaction(message, interaction)
            interaction.original_id = message.id
        elif rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE_MESSAGE) and component:
            assert interaction.message_id is not None
            message = self.messages[interaction.message_id]
            interaction.original_id = message.id
            if rtype == CALLBACK_UPDATE_MESSAGE:
                self._edit(message, data, req.files)
        elif rtype in (CALLBACK_PONG, CALLBACK_AUTOCOMPLETE, CALLBACK_MODAL):
            pass
        else:
            raise ApiError(400, 50035, "Invalid Form Body", {"type": f"bad callback type {rtype}"})

        interaction.callback = CallbackRecord(rtype, data, message, elapsed)
        interaction._answered.set()
        if message is not None and rtype != CALLBACK_DEFERRED_UPDATE:
            event = "MESSAGE_UPDATE" if rtype == CALLBACK_UPDATE_MESSAGE else "MESSAGE_CREATE"
            await self._message_event(event, message)
        if req.query.get("with_response", "").lower() not in ("1", "true"):
            return _NO_CONTENT
        # The interaction callback resource, which discord.py 2.7 always asks for.
        info: JSON = {"id": str(interaction.id), "type": interaction.type}
        resource: JSON = {"type": rtype}
        if message is not None:
            info.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            if rtype != CALLBACK_DEFERRED_UPDATE:
                resource["message"] = message.payload()
        return {"interaction": info, "resource": resource}

    def _attach_interaction(self, message: FakeMessage, interaction: FakeInteraction) -> None:
        user = interaction.user.payload()
        meta: JSON = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user,
            "authorizing_integration_owners": interaction.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if interaction.type == INTERACTION_COMMAND:
            meta["name"] = interaction.name
            meta["command_type"] = 1
        else:
            meta["interacted_message_id"] = str(interaction.message_id)
        message.interaction_metadata = meta
        message.interaction = {
            "id": str(interaction.id),
            "type": interaction.type,
            "name": interaction.name or "",
            "user": user,
        }

    def _webhook_interaction(self, req: _Request) -> FakeInteraction:
        if req.int_param("app_id") != self.application_id:
            raise _unknown("Webhook", 10015)
        token = req.params["token"]
        interaction = next((i for i in self.interactions.values() if i.token == token), None)
        if interaction is None:
            raise _unknown("Webhook", 10015)
        if interaction.expired:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if interaction.callback is None:
            raise _unknown("Webhook", 10015)  # follow-ups need an acknowledged interaction
        return interaction

    def _webhook_message(self, req: _Request) -> tuple[FakeInteraction, FakeMessage]:
        interaction = self._webhook_interaction(req)
        raw = req.params["message_id"]
        message_id = interaction.original_id if raw == "@original" else int(raw)
        owned = {interaction.original_id, *interaction.followup_ids}
        message = self.messages.get(message_id or 0)
        if message is None or message.deleted or message_id not in owned:
            raise _unknown("Message", 10008)
        return interaction, message

    async def _webhook_post(self, req: _Request) -> object:
        interaction = self._webhook_interaction(req)
        body: JSON = req.body or {}
        original = interaction.original
        if original is not None and original.loading:
            # After a deferred (type 5) response, the first follow-up fills the "thinking" message.
            self._edit(original, body, req.files)
            message = original
            await self._message_event("MESSAGE_UPDATE", message)
        else:
            ephemeral = body.get("flags", 0) & FLAG_EPHEMERAL
            message = self._new_message(
                interaction.channel,
                body,
                req.files,
                ephemeral_to=interaction.user.id if ephemeral else None,
            )
            message.webhook_id = self.application_id
            self._attach_interaction(message, interaction)
            interaction.followup_ids.append(message.id)
            await self._message_event("MESSAGE_CREATE", message)
        if req.query.get("wait", "").lower() in ("1", "true"):
            return message.payload()
        return _NO_CONTENT

    async def _webhook_get(self, req: _Request) -> JSON:
        return self._webhook_message(req)[1].payload()

    async def _webhook_patch(self, req: _Request) -> JSON:
        _, message = self._webhook_message(req)
        self._edit(message, req.body or {}, req.files)
        await self._message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _webhook_delete(self, req: _Request) -> object:
        _, message = self._webhook_message(req)
        message.deleted = True
        self._notify()
        await self._message_event("MESSAGE_DELETE", message)
        return _NO_CONTENT

    # --- REST: channels and messages ----------------------------------------------------------

    def _channel(self, req: _Request) -> FakeChannel:
        try:
            return self.channels[req.int_param("channel_id")]
        except KeyError:
            raise _unknown("Channel", 10003) from None

    def _channel_message(self, req: _Request) -> FakeMessage:
        channel = self._channel(req)
        message = self.messages.get(req.int_param("message_id"))
        # Ephemeral messages exist only for their interaction's webhook, never for the channel.
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.ephemeral
        ):
            raise _unknown("Message", 10008)
        return message

    async def _get_channel(self, req: _Request) -> JSON:
        return self._channel(req).payload()

    async def _list_messages(self, req: _Request) -> list[JSON]:
        channel = self._channel(req)
        limit = min(int(req.query.get("limit", 50)), 100)
        found = [m for m in self.messages_in(channel.id, ephemeral=False)]
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])]
        if "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])]
            return [m.payload() for m in reversed(found[:limit])]
        return [m.payload() for m in reversed(found[-limit:])]  # newest first, as Discord

    async def _post_message(self, req: _Request) -> JSON:
        channel = self._channel(req)
        body: JSON = req.body or {}
        if channel.type == 1:
            assert channel.recipient is not None
            if channel.recipient.id in self.dms_closed:
                self.failed_dms.append((channel.recipient.id, body))
                raise ApiError(403, 50007, "Cannot send messages to this user")
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None:
            # Discord: a nonce the same author used in the last few minutes returns that
            # message, and no second one is created (a retry of a post that did land).
            key = (channel.id, str(nonce))
            known = self._nonces.get(key)
            if known is not None and time.monotonic() - known[1] < NONCE_WINDOW:
                self.nonce_hits += 1
                return self.messages[known[0]].payload()
        message = self._new_message(channel, body, req.files)
        if nonce is not None:
            self._nonces[(channel.id, str(nonce))] = (message.id, time.monotonic())
        if body.get("message_reference"):
            message.type = 19  # REPLY
            message.reference = {**body["message_reference"], "channel_id": str(channel.id)}
        await self._message_event("MESSAGE_CREATE", message)
        return message.payload()

    async def _get_message(self, req: _Request) -> JSON:
        return self._channel_message(req).payload()

    async def _patch_message(self, req: _Request) -> JSON:
        message = self._channel_message(req)
        if message.author is not self.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(message, req.body or {}, req.files)
        await self._message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _delete_message(self, req: _Request) -> object:
        message = self._channel_message(req)
        message.deleted = True
        self._notify()
        await self._message_event("MESSAGE_DELETE", message)
        return _NO_CONTENT

    # --- REST: guild --------------------------------------------------------------------------

    def _check_guild(self, req: _Request) -> None:
        if req.int_param("guild_id") != self.guild_id:
            raise _unknown("Guild", 10004)

    async def _get_guild(self, req: _Request) -> JSON:
        self._check_guild(req)
        guild = self._guild_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            guild.pop(key)
        guild["approximate_member_count"] = guild["member_count"]
        return guild

    async def _get_guild_channels(self, req: _Request) -> list[JSON]:
        self._check_guild(req)
        return self._guild_payload()["channels"]

    async def _get_roles(self, req: _Request) -> list[JSON]:
        self._check_guild(req)
        return [self._everyone_role(), self._bot_role()]

    async def _list_members(self, req: _Request) -> list[JSON]:
        self._check_guild(req)
        return [self._member_payload(u) for u in [self.bot, *self.users.values()]]

    async def _get_member(self, req: _Request) -> JSON:
        self._check_guild(req)
        try:
            return self._member_payload(self.user(req.int_param("user_id")))
        except KeyError:
            raise _unknown("Member", 10007) from None

    # --- message store ------------------------------------------------------------------------

    def _store(self, message: FakeMessage) -> FakeMessage:
        self.messages[message.id] = message
        self._notify()
        self._observe(message)
        return message

    def _observe(self, message: FakeMessage) -> None:
        for observer in self.observers:
            observer(message)

    def _uploads(
        self, files: list[tuple[str, str, bytes]], channel_id: int
    ) -> list[tuple[JSON, bytes]]:
        out = []
        for _, filename, data in files:
            att_id = self._ids.next()
            url = f"{self.base_url}/attachments/{channel_id}/{att_id}/{filename}"
            att = {
                "id": str(att_id),
                "filename": filename,
                "size": len(data),
                "url": url,
                "proxy_url": url,
            }
            out.append((att, data))
        return out

    def _new_message(
        self,
        channel: FakeChannel,
        body: JSON,
        files: list[tuple[str, str, bytes]],
        *,
        ephemeral_to: int | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        flags = (body.get("flags") or 0) & _SETTABLE_FLAGS
        if loading:
            flags = FLAG_LOADING | (flags & FLAG_EPHEMERAL)
        elif not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or files
            or body.get("poll")
            or body.get("sticker_ids")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        errors = validate_message({**body, "flags": flags})
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        uploads = self._uploads(files, channel.id)
        message = FakeMessage(
            id=self._ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=[att for att, _ in uploads],
            files={att["id"]: data for att, data in uploads},
            flags=flags,
            visible_to=ephemeral_to,
        )
        return self._store(message)

    def _edit(self, message: FakeMessage, body: JSON, files: list[tuple[str, str, bytes]]) -> None:
        """Applies a partial edit (only keys present change), validating the result first.

        Any successful edit also fills a deferred "thinking" message (clears the loading flag).
        """
        updated: dict[str, Any] = {
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "flags": message.flags & ~FLAG_LOADING,
        }
        for key in ("content", "embeds", "components"):
            if key in body:
                updated[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if body.get("flags") is not None:
            # Ephemerality is fixed at creation; the other settable flags follow the edit.
            fixed = message.flags & FLAG_EPHEMERAL
            updated["flags"] = (body["flags"] & _SETTABLE_FLAGS & ~FLAG_EPHEMERAL) | fixed
        attachments = message.attachments
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            attachments = [a for a in attachments if a["id"] in keep]
        uploads = self._uploads(files, message.channel_id)
        attachments = attachments + [att for att, _ in uploads]
        if not (updated["content"] or updated["embeds"] or updated["components"] or attachments):
            raise ApiError(400, 50006, "Cannot send an empty message")
        errors = validate_message(updated)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        if not message.loading:  # the empty "thinking" placeholder is not a version users saw
            message.history.append(message.snapshot())
        message.content = updated["content"]
        message.embeds = updated["embeds"]
        message.components = updated["components"]
        message.flags = updated["flags"]
        message.attachments = attachments
        message.files.update({att["id"]: data for att, data in uploads})
        message.edited_at = _now()
        self._notify()
        self._observe(message)


__all__ = [
    "ApiError",
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "iter_components",
    "validate_message",
]
