"""Players clicking through many tables at once, at a steady rate, as people would.

Each channel ("slot") hosts one live game of a fixed kind and players. A slot has at most one
click in flight: it reads the game from the bot's database (read-only), lets the seeded policy
choose a move, then a route (a public table button, the table's picker, "My hand", or the DM
hand) and clicks its way there; after an applied move it waits until the table shows it. The
scheduler fires the ready slots' next clicks at R clicks per second. Finished games are
replaced by a new one in the same channel (/newgame, Join, Start), like players would.

Every fired click is recorded with a copy of the message it was made on, so the very same
clicks can be replayed against the do-nothing bot (`replay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bench.loadgen.gamedb import GameReader
from bench.loadgen.policy import Control, Move, choose, control_for, lobby_game, shown_version
from bench.loadgen.policy import table_button as find_table_button
from tests.fakediscord import CallbackRecord, FakeDiscord, FakeInteraction, FakeMessage

log = logging.getLogger("loadgen")

ANSWER_TIMEOUT = 5.0  # Discord forgets an unanswered click after 3 s; the fake refuses later
TABLE_TIMEOUT = 10.0  # an applied move whose table is not updated by then is an error
START_DM_WAIT = 10.0  # after Start, how long players wait for their DM hands to arrive
DM_WAIT = 1.0  # how long a player waits for their DM hand to catch up before using the table
RETRY_PAUSE = 0.5
ROUTE_WEIGHTS = {"table": 3, "picker": 3, "dm": 3, "hand": 1}
STALE = "stale: the game had moved on"  # a clock or timer moved it between choice and click
MOVED_ON = "the message changed before the click (the game moved on)"
UPDATE = 7  # callback: the clicked message was edited
MESSAGE = 4  # callback: a new message


@dataclass(slots=True)
class Shot:
    """The message as the click saw it (the fake replaces, never mutates, these values)."""

    channel_id: int
    content: str
    embeds: list[Any]
    components: list[Any]
    flags: int
    visible_to: int | None

    @classmethod
    def of(cls, message: FakeMessage) -> Shot:
        return cls(
            message.channel_id,
            message.content,
            message.embeds,
            message.components,
            message.flags,
            message.visible_to,
        )


@dataclass(slots=True)
class Click:
    slot: int
    game: int | None
    user: int
    kind: str  # slash | lobby | open | step | move
    route: str  # table | picker | hand | dm | lobby
    channel_id: int
    message: FakeMessage | None = None
    custom_id: str | None = None
    values: tuple[str, ...] | None = None
    slash: tuple[str, dict[str, Any]] | None = None  # (command, options)
    shot: Shot | None = None
    at: float = 0.0  # seconds since the run started
    sent_at: float = 0.0  # monotonic, when dispatched
    latency: float | None = None  # dispatch -> callback
    answer: int | None = None  # callback type
    applied: bool | None = None  # moves: did the database take it
    table_latency: float | None = None  # moves: dispatch -> the table shows the move
    note: str = ""  # what went wrong, if anything
    interaction_id: int | None = None


@dataclass
class Issue:
    slot: int
    what: str


class Slot:
    """One channel and its current game, played by a fixed set of users."""

    def __init__(
        self, driver: Driver, index: int, kind: str, channel_id: int, players: list[int]
    ) -> None:
        self.driver = driver
        self.index = index
        self.kind = kind
        self.channel_id = channel_id
        self.players = players
        self.rng = random.Random(driver.seed * 100_003 + index)
        self.game_id: int | None = None
        self.games_started = 0
        self.lobby: FakeMessage | None = None
        self.table_id: int | None = None
        self.table_version: float = -1
        self.table_seen_at = 0.0  # monotonic, when the table last changed version
        self._table_waiter: tuple[float, asyncio.Future[float]] | None = None
        self.pending: Click | None = None
        self.excluded = False  # the scheduler leaves this slot alone
        # The move under way: what, from which version, and the message being navigated.
        self.move: Move | None = None
        self.version = 0
        self.route = ""
        self.start_answer = "not pressed"  # what the last Start got, for the report

    # -- the table, as the observer sees it ---------------------------------------------------
    @property
    def live(self) -> bool:
        return self.game_id is not None and self.table_id is not None and self.lobby is None

    def table(self) -> FakeMessage | None:
        return None if self.table_id is None else self.driver.fake.messages.get(self.table_id)

    def saw_table(self, message_id: int, version: float, at: float) -> None:
        if message_id != self.table_id or version != self.table_version:
            self.table_seen_at = at
        self.table_id = message_id
        self.table_version = version
        waiter = self._table_waiter
        if waiter is not None and version >= waiter[0] and not waiter[1].done():
            waiter[1].set_result(at)

    async def wait_table(self, version: float, timeout: float = TABLE_TIMEOUT) -> float | None:
        """Monotonic time at which the table showed `version` (or later), None on timeout."""
        if self.table_version >= version:
            return self.table_seen_at
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._table_waiter = (version, future)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None
        finally:
            self._table_waiter = None

    # -- choosing the next click ----------------------------------------------------------------
    def offer(self, click: Click) -> None:
        self.pending = click
        self.driver.make_ready(self)

    async def prepare(self) -> None:
        """Sets `pending` to the first click of the next move (or of a new game)."""
        await self.driver.quiet()
        reader = self.driver.reader
        if self.game_id is None:
            found = reader.open_game(self.channel_id)
            if found is not None:
                self.issue("adopted the channel's open game")
                await self.adopt(*found)
                return
        snap = None if self.game_id is None else reader.game(self.game_id)
        if snap is None or snap.status in ("finished", "cancelled"):
            self.offer_newgame()
            return
        if snap.status == "lobby":
            self.issue(f"still a lobby after Start ({self.start_answer}); joining, starting again")
            assert self.game_id is not None
            await self.adopt(self.game_id, "lobby", self.lobby.id if self.lobby else None)
            return
        self.lobby = None  # started (even if the answer to Start was lost)
        if self.table_version < snap.version:
            if await self.wait_table(snap.version) is None:
                self.issue(f"game {self.game_id}: table never showed version {snap.version}")
            await self.driver.quiet()
        game = snap.game()
        move = choose(self.rng, self.kind, game)
        if move is None:
            self.again(RETRY_PAUSE)  # nobody can act now (a clock will move it)
            return
        self.move, self.version = move, snap.version
        user = int(move.player)
        assert self.game_id is not None
        table = self.table()
        routes = dict(ROUTE_WEIGHTS)
        button = None
        if table is None or shown_version(table, self.game_id) != (self.game_id, snap.version):
            table = None
            routes.pop("picker")
        else:
            button = find_table_button(table, self.game_id, snap.version, move)
        if button is None:
            routes.pop("table")
        route = self.rng.choices(list(routes), weights=list(routes.values()))[0]
        if route == "dm":
            hand_dm = await self.current_dm(user, snap.version)
            if hand_dm is not None:
                dm, drawn = hand_dm
                self.route = "dm"
                play = opens_moves(dm, self.game_id)
                if play is not None:
                    # Drawn between the player's turns: its Play opens the moves in the DM.
                    self.offer(self.click("open", user, dm, play))
                elif not self.navigate(dm, user, drawn):
                    self.again(0)
                return
            route = "picker" if table is not None else "hand"
        self.route = route
        assert self.game_id is not None
        if route == "table":
            assert table is not None and button is not None
            self.offer(self.click("move", user, table, button))
        elif route == "picker":
            assert table is not None
            self.offer(self.click("open", user, table, f"g:{self.game_id}:{snap.version}:*"))
        else:
            hand_on = table or self.table()
            if hand_on is None:
                self.issue(f"game {self.game_id}: no table message to click")
                self.again(RETRY_PAUSE)
                return
            self.offer(self.click("open", user, hand_on, f"h:{self.game_id}"))

    def again(self, pause: float) -> None:
        """Prepares again in a while, as a new task (no recursion however long it takes)."""

        async def later() -> None:
            await asyncio.sleep(pause)
            await self.prepare()

        self.driver.spawn(later())

    async def current_dm(self, user: int, version: int) -> tuple[FakeMessage, int] | None:
        """The player's DM hand and the version its buttons carry, once it shows `version`
        (waits a little) or an earlier one the bot still takes: drawn since the player's
        choices last changed (others' moves in a simultaneous phase do not redraw it)."""
        assert self.game_id is not None
        reader = self.driver.reader
        dm_id = reader.dm_message(self.game_id, user)
        if dm_id is None:
            return None
        message = self.driver.fake.messages.get(dm_id)
        if message is None:
            return None
        if opens_moves(message, self.game_id) is not None:
            return message, version  # its Play opens the moves as they are now
        shown = shown_version(message, self.game_id)
        if shown is not None and shown[1] < version:
            since = reader.choices_since(self.game_id, user)
            if since is not None and since <= shown[1]:
                return message, shown[1]
        if shown != (self.game_id, version):
            if not await self.driver.wait_dm(dm_id, version, DM_WAIT):
                return None
            await self.driver.quiet()  # the caller reads the DM's buttons next
        return message, version

    def navigate(self, message: FakeMessage, user: int, drawn: int | None = None) -> bool:
        """Offers the click on `message` (its buttons drawn at version `drawn`, by default the
        current one) leading to (or applying) the current move."""
        assert self.game_id is not None and self.move is not None
        version = self.version if drawn is None else drawn
        control: Control | None = control_for(message, self.game_id, version, self.move)
        if control is None:
            if self.driver.reader.version(self.game_id) != self.version:
                # A clock moved the game (a phase ran out) between choosing and clicking.
                self.driver.issues.append(Issue(self.index, MOVED_ON))
                return False
            self.issue(
                f"game {self.game_id} v{self.version}: {self.move.action!r} not offered on "
                f"{message.custom_ids()}"
            )
            return False
        kind = "move" if control.final else "step"
        self.offer(self.click(kind, user, message, control.custom_id, control.values))
        return True

    def click(
        self,
        kind: str,
        user: int,
        message: FakeMessage,
        custom_id: str,
        values: tuple[str, ...] | None = None,
        route: str | None = None,
    ) -> Click:
        return Click(
            self.index,
            self.game_id,
            user,
            kind,
            route or self.route,
            message.channel_id,
            message,
            custom_id,
            values,
        )

    def offer_newgame(self) -> None:
        self.game_id = None
        self.lobby = None
        self.table_id = None
        self.table_version = -1
        self.offer(
            Click(
                self.index,
                None,
                self.players[0],
                "slash",
                "lobby",
                self.channel_id,
                slash=self.driver.newgame_call(self.kind),
            )
        )

    async def adopt(self, game_id: int, status: str, message_id: int | None) -> None:
        """Takes over the channel's open game (a /newgame that failed half-way, say)."""
        self.game_id = game_id
        self.driver.by_game[game_id] = self
        message = None if message_id is None else self.driver.fake.messages.get(message_id)
        if status == "lobby":
            self.table_id, self.table_version = None, -1
            if message is not None and lobby_game(message) == game_id:
                self.lobby = message
                self.offer_lobby("join", self.players[1])
                return
            # No lobby message to click: the host ends it, then opens a new one.
            self.lobby = None
            self.offer(
                Click(
                    self.index,
                    game_id,
                    self.players[0],
                    "slash",
                    "lobby",
                    self.channel_id,
                    slash=("endgame", {}),
                )
            )
            return
        self.lobby = None
        shown = None if message is None else shown_version(message, game_id)
        if message is not None:
            self.table_id = message.id
            self.table_version = -1 if shown is None else shown[1]
        await self.prepare()

    def offer_lobby(self, verb: str, user: int | None = None) -> None:
        if self.lobby is None or self.game_id is None:
            self.offer_newgame()
            return
        who = self.players[0] if user is None else user
        self.offer(self.click("lobby", who, self.lobby, f"l:{self.game_id}:{verb}", route="lobby"))

    def issue(self, what: str) -> None:
        self.driver.issues.append(Issue(self.index, what))
        log.debug("slot %s: %s", self.index, what)

    # -- after an answer -----------------------------------------------------------------------
    async def answered(self, click: Click, rec: CallbackRecord | None) -> None:
        if rec is None:
            if click.kind == "lobby" and (click.custom_id or "").endswith(":start"):
                self.start_answer = "unanswered"
            await self.prepare()
            return
        if click.kind == "slash":
            gid = lobby_game(rec.message) if rec.message is not None else None
            if click.slash is not None and not click.slash[0].startswith("newgame"):
                self.game_id = None  # /endgame: the channel is free again
                await self.prepare()
                return
            if rec.type != MESSAGE or gid is None:
                click.note = "newgame refused"
                self.issue(f"newgame refused, answered: {self.driver.answer_text(click)}")
                await asyncio.sleep(RETRY_PAUSE)
                await self.prepare()
                return
            self.game_id, self.lobby = gid, rec.message
            self.games_started += 1
            self.driver.by_game[gid] = self
            self.offer_lobby("join", self.players[1])
            return
        if click.kind == "lobby":
            await self.lobby_answered(click, rec)
            return
        if click.kind in ("open", "step"):
            # Opened in a DM, the moves redraw it (privately, the bot sharing a database);
            # on the table, they come privately.
            opened = (UPDATE, MESSAGE) if click.route == "dm" else (MESSAGE,)
            ok = rec.message is not None and (
                (click.kind == "open" and rec.type in opened)
                or (click.kind == "step" and rec.type == UPDATE)
            )
            if not ok or rec.message is None:
                assert self.game_id is not None
                if self.driver.reader.version(self.game_id) > self.version:
                    click.note = STALE
                else:
                    click.note = "picker not shown"
                    self.issue(f"picker not shown, answered: {self.driver.answer_text(click)}")
                await self.prepare()
            elif not self.navigate(rec.message, click.user):
                await self.prepare()
            return
        await self.move_answered(click)

    async def lobby_answered(self, click: Click, rec: CallbackRecord) -> None:
        assert click.custom_id is not None
        verb = click.custom_id.rsplit(":", 1)[1]
        if rec.type != UPDATE:
            click.note = f"lobby {verb} refused"
        if verb == "join":
            seated = self.players.index(click.user)
            if seated + 1 < len(self.players):
                self.offer_lobby("join", self.players[seated + 1])
            else:
                self.offer_lobby("start")
            return
        self.start_answer = self.driver.answer_text(click)
        if rec.type != UPDATE:
            self.issue(f"start refused, answered: {self.start_answer}")
            await asyncio.sleep(RETRY_PAUSE)
            await self.prepare()  # still a lobby: join and start again
            return
        # Start: the bot posts the table (the observer notes it), then the first move.
        self.lobby = None
        if await self.wait_table(0) is None:
            self.issue(f"game {self.game_id}: no table after Start")
        await self.wait_dms()
        await self.prepare()

    async def wait_dms(self) -> None:
        """Waits (a while) until every player has their DM hand, as players who were just told
        the game started would: otherwise the first move's route is chosen before the DMs
        exist, and the DM route is under-used at large N (the set-up outpaces the DMs)."""
        assert self.game_id is not None
        reader = self.driver.reader
        deadline = time.monotonic() + START_DM_WAIT
        while time.monotonic() < deadline:
            if all(reader.dm_message(self.game_id, user) is not None for user in self.players):
                return
            await asyncio.sleep(0.1)

    async def move_answered(self, click: Click) -> None:
        assert self.game_id is not None and self.move is not None
        done = self.driver.reader.move(self.game_id, self.version + 1)
        click.applied = done is not None and done[0] == click.user
        if not click.applied:
            if done is not None:  # another move took that version first (a clock, a timer)
                click.note = STALE
            else:
                click.note = "move not applied"
                self.issue(f"move not applied, answered: {self.driver.answer_text(click)}")
            await self.prepare()
            return
        shown = await self.wait_table(self.version + 1)
        if shown is None:
            click.note = "table not updated"
        else:
            click.table_latency = shown - click.sent_at
        await self.prepare()


def opens_moves(message: FakeMessage, game_id: int | None) -> str | None:
    """The custom id of a DM hand's Play button (drawn between its owner's turns), if any."""
    prefix = f"g:{game_id}:"
    found = (c for c in message.custom_ids() if c.startswith(prefix) and c.endswith(":*"))
    return next(found, None)


class Driver:
    """The slots, the observer of the fake's messages, and the steady-rate scheduler."""

    def __init__(self, fake: FakeDiscord, reader: GameReader, seed: int) -> None:
        self.fake = fake
        self.reader = reader
        self.seed = seed
        self.rng = random.Random(seed)
        self.slots: list[Slot] = []
        self.by_channel: dict[int, Slot] = {}
        self.by_game: dict[int, Slot] = {}
        self.issues: list[Issue] = []
        self._ready: list[Slot] = []
        self._ready_event = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._work: dict[asyncio.Task[None], Any] = {}  # each task's coroutine, to close
        self.inflight = 0  # clicks fired whose answer (and table, and next step) is pending
        # Clicks dispatched whose answer has not arrived. With `gate` on, the slots' blocking
        # work (reading the bot's database, loading the game, the policy) waits until none is
        # (`quiet`): it shares the event loop with the fake, which stamps the answers.
        self.flying = 0
        self.gate = False
        self._quiet = asyncio.Event()
        self._quiet.set()
        self.hold_live = False  # while games are being set up, live ones wait in `_held`
        self._held: list[Slot] = []
        self._dm_waiters: dict[int, list[tuple[int, asyncio.Future[None]]]] = {}
        self._by_user: dict[int, int] | None = None  # player -> slot index, once slots are set
        self.fake.observers.append(self.observe)

    def newgame_call(self, kind: str) -> tuple[str, dict[str, Any]]:
        """How /newgame opens a lobby of `kind`, as the synced command says: a subcommand per
        game (`/newgame uno`) or one command with a `game` choice. A turn timer, if the command
        offers one, is switched off: only the benchmark's clicks move the games."""
        spec = self.fake.command("newgame")
        for option in spec.get("options") or []:
            if option.get("type") == 1 and option.get("name") == kind:
                names = {o["name"] for o in option.get("options") or []}
                return f"newgame {kind}", ({"turn_timer": 0} if "turn_timer" in names else {})
        return "newgame", {"game": kind}

    def answer_text(self, click: Click) -> str:
        """The answer a click got (callback type and the start of its text), for reports."""
        ix = self.fake.interactions.get(click.interaction_id or 0)
        if ix is None or ix.callback is None:
            return "nothing"
        message = ix.callback.message
        text = "" if message is None else " ".join(message.text.split())[:70]
        followups = [m.text for m in ix.followups]
        if followups:
            text += " / follow-up: " + " ".join(followups[-1].split())[:70]
        return f"type {ix.callback.type} {text!r}"

    def add_slot(self, kind: str, channel_id: int, players: list[int]) -> Slot:
        slot = Slot(self, len(self.slots), kind, channel_id, players)
        self.slots.append(slot)
        self.by_channel[channel_id] = slot
        return slot

    def slot_of_channel(self, channel_id: int) -> int | None:
        """The slot whose game channel, or one of whose players' DM channel, this is."""
        slot = self.by_channel.get(channel_id)
        if slot is not None:
            return slot.index
        channel = self.fake.channels.get(channel_id)
        if channel is None or channel.recipient is None:
            return None
        if self._by_user is None:
            self._by_user = {user: s.index for s in self.slots for user in s.players}
        return self._by_user.get(channel.recipient.id)

    def detach(self) -> None:
        if self.observe in self.fake.observers:
            self.fake.observers.remove(self.observe)

    async def close(self) -> None:
        """Stops watching and cancels every slot's pending work."""
        self.detach()
        tasks = list(self._tasks)
        works = list(self._work.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for work in works:
            work.close()  # a task cancelled before it ran never started its coroutine
        self._work.clear()

    # -- watching the bot's messages ---------------------------------------------------------
    def observe(self, message: FakeMessage) -> None:
        """Called by the fake on every message created or edited: tracks tables and DMs."""
        if message.ephemeral or message.author is not self.fake.bot:
            return
        now = time.monotonic()
        slot = self.by_channel.get(message.channel_id)
        shown = shown_version(message)
        if slot is not None:
            if shown is not None and shown[0] == slot.game_id:
                slot.saw_table(message.id, shown[1], now)
            elif message.id == slot.table_id and shown is None and lobby_game(message) is None:
                slot.saw_table(message.id, math.inf, now)  # the game ended: no buttons left
            return
        if shown is not None and message.id in self._dm_waiters:
            waiting = self._dm_waiters[message.id]
            for version, future in waiting:
                if shown[1] >= version and not future.done():
                    future.set_result(None)

    async def wait_dm(self, message_id: int, version: int, timeout: float) -> bool:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (version, future)
        self._dm_waiters.setdefault(message_id, []).append(entry)
        try:
            await asyncio.wait_for(future, timeout)
            return True
        except TimeoutError:
            return False
        finally:
            waiting = self._dm_waiters.get(message_id, [])
            if entry in waiting:
                waiting.remove(entry)
            if not waiting:
                self._dm_waiters.pop(message_id, None)

    async def quiet(self) -> None:
        """With `gate` on: returns once no click awaits its answer, so the synchronous work
        that follows (up to the caller's next await) cannot delay an answer's stamp. Returns
        at once, without yielding, when the gate is off or nothing is in flight."""
        while self.gate and self.flying:
            await self._quiet.wait()

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """With `gate` on: no blocking work of the driver's while this lasts, as if a click
        were in flight throughout (the floor's replay is measured meanwhile)."""
        self._took_off()
        try:
            yield
        finally:
            self._landed()

    def _took_off(self) -> None:
        self.flying += 1
        self._quiet.clear()

    def _landed(self) -> None:
        self.flying -= 1
        if not self.flying:
            self._quiet.set()

    # -- the ready queue -----------------------------------------------------------------------
    def make_ready(self, slot: Slot) -> None:
        if slot.excluded:
            return
        if self.hold_live and slot.live:
            self._held.append(slot)
            return
        self._ready.append(slot)
        self._ready_event.set()

    def release(self) -> None:
        """Ends the set-up: the live games' first moves become ready."""
        self.hold_live = False
        held, self._held = self._held, []
        for slot in held:
            self.make_ready(slot)

    def _take_ready(self) -> Slot | None:
        while self._ready:
            i = self.rng.randrange(len(self._ready))
            self._ready[i], self._ready[-1] = self._ready[-1], self._ready[i]
            slot = self._ready.pop()
            if not slot.excluded and slot.pending is not None:
                return slot
        self._ready_event.clear()
        return None

    def start(self) -> None:
        """Every slot prepares its first click (a new game)."""
        for slot in self.slots:
            self.spawn(slot.prepare())

    def spawn(self, work: Any) -> None:
        task = asyncio.create_task(self._guard(work))
        self._tasks.add(task)
        self._work[task] = work
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._work.pop(task, None)

    async def _guard(self, work: Any) -> None:
        try:
            await work
        except Exception as error:  # the benchmark goes on; the report lists it
            log.exception("driver task failed")
            self.issues.append(Issue(-1, f"driver error: {error!r}"))

    async def settle(self, timeout: float = 15.0) -> bool:
        """Waits until no click is in flight and no applied move is still waiting for its
        table (nor the slot for its next click's preparation). False on timeout."""
        deadline = time.monotonic() + timeout
        while self.inflight and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return not self.inflight

    # -- firing ----------------------------------------------------------------------------
    async def fire(self, click: Click) -> FakeInteraction | None:
        fake = self.fake
        try:
            if click.kind == "slash":
                assert click.slash is not None
                command, options = click.slash
                ix = await fake.slash(click.user, command, options, channel_id=click.channel_id)
            else:
                assert click.message is not None and click.custom_id is not None
                click.shot = Shot.of(click.message)
                if click.values is None:
                    ix = await fake.click(click.user, click.message.id, click.custom_id)
                else:
                    ix = await fake.select(
                        click.user, click.message.id, click.custom_id, list(click.values)
                    )
        except (ValueError, KeyError):
            # The message changed between choosing and clicking (the game moved on without
            # this player: a clock): nobody clicked anything.
            self.issues.append(Issue(click.slot, MOVED_ON))
            return None
        click.sent_at = ix.dispatched_at
        click.interaction_id = ix.id
        return ix

    async def _follow(self, slot: Slot, click: Click, ix: FakeInteraction) -> None:
        rec: CallbackRecord | None
        try:
            rec = await ix.response(timeout=ANSWER_TIMEOUT)
        except TimeoutError:
            rec = None
            click.note = "unanswered" + (f" (refused {ix.refused})" if ix.refused else "")
        finally:
            self._landed()
        if rec is not None:
            click.latency = rec.elapsed
            click.answer = rec.type
        try:
            await self.quiet()  # what follows reads the bot's database
            await slot.answered(click, rec)
        finally:
            self.inflight -= 1

    async def run(
        self,
        rate: float,
        *,
        count: int | None = None,
        duration: float | None = None,
        until: Callable[[], bool] | None = None,
        record: list[Click] | None = None,
        max_inflight: int | None = None,
        start: float | None = None,
    ) -> tuple[float, int]:
        """Fires ready slots' clicks at `rate` per second until `count` clicks, `duration`
        seconds or `until()`; with `max_inflight`, never more clicks than that waiting for
        their answer (a closed loop, for the unmeasured set-up). The k-th click is due at
        `start` (default: now) + k / rate, so a run can continue another's beat. Returns
        (elapsed seconds, clicks fired late by over 10 ms)."""
        start = time.monotonic() if start is None else start
        fired = late = 0
        while True:
            if max_inflight is not None:
                while self.inflight >= max_inflight:
                    await asyncio.sleep(0.005)
                    if duration is not None and time.monotonic() - start >= duration:
                        break
            if count is not None and fired >= count:
                break
            if duration is not None and time.monotonic() - start >= duration:
                break
            if until is not None and until():
                break
            due = start + fired / rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            slot = self._take_ready()
            while slot is None:
                try:
                    await asyncio.wait_for(self._ready_event.wait(), 0.5)
                except TimeoutError:
                    if until is not None and until():
                        break
                    if duration is not None and time.monotonic() - start >= duration:
                        break
                slot = self._take_ready()
            if slot is None:
                break
            click = slot.pending
            assert click is not None
            slot.pending = None
            if time.monotonic() - due > 0.010:
                late += 1
            self._took_off()
            ix = await self.fire(click)
            if ix is None:
                self._landed()
                self.spawn(slot.prepare())
                continue
            click.at = click.sent_at - start
            fired += 1
            if record is not None:
                record.append(click)
            self.inflight += 1
            self.spawn(self._follow(slot, click, ix))
        return time.monotonic() - start, late


# ---------------------------------------------------------------------------------------------
# The same clicks against another bot
# ---------------------------------------------------------------------------------------------


@dataclass
class Replayed:
    click: Click
    ix: FakeInteraction | None = None
    latency: float | None = None
    answer: int | None = None


@dataclass
class ReplayResult:
    items: list[Replayed] = field(default_factory=list)
    elapsed: float = 0.0
    late: int = 0


async def replay(
    fake: FakeDiscord,
    clicks: list[Click],
    *,
    offsets: list[float] | None = None,
    mark: tuple[int, Callable[[], None]] | None = None,
    before: Callable[[list[tuple[Click, int]]], Awaitable[None]] | None = None,
) -> ReplayResult:
    """Clicks copies of the recorded messages (bot-authored, same custom ids, same channels and
    visibility) at the recorded offsets (`click.at`, or `offsets`: one per click, seconds from
    the replay's start). Slash commands are not replayed (their slot idles). `mark`: (i, f),
    f() is called just before the first click at index i or later is sent (a measured window
    begins there). `before` is awaited with each click and its copy's id, before the first."""
    result = ReplayResult()
    copies: list[tuple[Replayed, int]] = []
    at: dict[int, float] = {}
    index: dict[int, int] = {}
    observers, fake.observers = fake.observers, []  # copies are not the tables being watched
    for i, click in enumerate(clicks):
        if click.kind == "slash" or click.shot is None:
            continue
        shot = click.shot
        message = fake.add_bot_message(
            shot.channel_id,
            content=shot.content,
            embeds=shot.embeds,
            components=shot.components,
            flags=shot.flags,
            visible_to=shot.visible_to,
        )
        item = Replayed(click)
        result.items.append(item)
        copies.append((item, message.id))
        at[id(item)] = click.at if offsets is None else offsets[i]
        index[id(item)] = i
    fake.observers = observers
    if before is not None:
        await before([(item.click, message_id) for item, message_id in copies])
    start = time.monotonic()
    waits = []
    for item, message_id in copies:
        click = item.click
        due = start + at[id(item)]
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if mark is not None and index[id(item)] >= mark[0]:
            mark[1]()
            mark = None
        if time.monotonic() - due > 0.010:
            result.late += 1
        assert click.custom_id is not None
        if click.values is None:
            ix = await fake.click(click.user, message_id, click.custom_id)
        else:
            ix = await fake.select(click.user, message_id, click.custom_id, list(click.values))
        item.ix = ix
        waits.append(_answer(item))
    await asyncio.gather(*waits)
    result.elapsed = time.monotonic() - start
    return result


async def _answer(item: Replayed) -> None:
    assert item.ix is not None
    try:
        rec = await item.ix.response(timeout=ANSWER_TIMEOUT)
    except TimeoutError:
        return
    item.latency = rec.elapsed
    item.answer = rec.type
