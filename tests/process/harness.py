"""The real bot as a subprocess against the wire-level fake Discord, played like people do.

``BotProcess`` starts, kills (SIGKILL) and restarts the real bot.py on a temporary SQLite file;
``read_game`` reads its database read-only, in one snapshot; ``Table`` plays one UNO game
through the fake as its users (table buttons, the ephemeral picker, My hand), choosing moves
with a seeded policy from what the database says, and checks that every answered move was
committed completely; ``check_log`` checks a move log against the stored state.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import engine
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeMessage

REPO_ROOT = Path(__file__).resolve().parents[2]
RUN_BOT = REPO_ROOT / "tests" / "fakediscord" / "run_bot.py"
SEED = int(os.environ.get("CRASH_TEST_SEED", "20240611"))
TEST_TIMEOUT = 90.0  # hard ceiling; a run takes well under half of it
STEP = 5.0  # per interaction / per wait
MAX_MOVES = 1500  # the policy ends a 3-player game to 50 in ~80 moves on average (max ~500)
PLAYERS = ("alice", "bob", "carol")
KILLS = ("after_ack", "on_arrival", "in_flight", "before_answer", "settled")
STALE = "out of date"  # in both of the bot's stale-button refusals
TABLE_VERBS = ("draw", "uno", "catch", "challenge", "accept", "color")  # public table buttons

Move = tuple[int, int, str]  # (seq, user id, action), as in the moves table
UPDATE = 7  # interaction callback: edit the clicked message
MESSAGE = 4  # interaction callback: a new (here ephemeral) message


# ---------------------------------------------------------------------------------------------
# The bot process and the database, seen from outside
# ---------------------------------------------------------------------------------------------


def fake_bot_env(db_path: Path, **env: str) -> dict[str, str]:
    """The environment of a bot run against the fake: this one's, with a fake token, the
    database at ``db_path``, INFO logging, unbuffered output and text cards, then ``env``."""
    return {
        **os.environ,
        "DISCORD_TOKEN": "fake",
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
        "CARD_EMOJIS": "off",  # tests about faces turn them on
        **env,
    }


async def spawn_run_bot(
    fake: FakeDiscord, env: dict[str, str], log: IO[str], *args: str
) -> asyncio.subprocess.Process:
    """The real bot (run_bot.py, pointed at ``fake``) as a subprocess with ``args``, stdin
    closed, its output written to ``log``."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(RUN_BOT),
        fake.base_url,
        *args,
        cwd=REPO_ROOT,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )


def bot_py_alone(timeout: float, **env: str) -> subprocess.CompletedProcess[str]:
    """bot.py on its own, without a fake Discord (it stops at the database or at login),
    with a fake token, INFO logging and ``env``; its output captured."""
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "bot.py")],
        cwd=REPO_ROOT,
        env={**os.environ, "DISCORD_TOKEN": "fake-token", "LOG_LEVEL": "INFO", **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


class BotProcess:
    """The real bot as a subprocess; output goes to a log file shown when the test fails."""

    def __init__(self, fake: FakeDiscord, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.db_path = workdir / "bot.db"
        self.log_path = workdir / "bot.log"
        self.env = fake_bot_env(
            self.db_path,
            **{
                "DEV_GUILD_ID": str(fake.guild_id),
                "RUN_BOT_SEED": str(SEED),  # the same deals on every run (CRASH_TEST_SEED)
                **(env or {}),
            },
        )
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        with self.log_path.open("a") as log:
            log.write(f"\n===== start #{self.starts + 1} =====\n")
            self.proc = await spawn_run_bot(self.fake, self.env, log)
        self.starts += 1
        await self.ready()

    async def ready(self) -> None:
        """Until the bot is connected and its commands are synced."""
        await self.fake.wait_connected(timeout=20)
        await self.fake.wait_commands("newgame", timeout=20)

    def kill_now(self) -> None:
        """SIGKILL without yielding to the event loop (so nothing else happens first)."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()

    async def kill(self) -> None:
        self.kill_now()
        if self.proc is not None:
            await asyncio.wait_for(self.proc.wait(), 10)

    async def restart(self) -> None:
        await self.kill()
        await self.fake.wait_disconnected(timeout=10)
        await self.start()

    def output(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


@dataclass(frozen=True)
class Snapshot:
    """One consistent read of a game: its row and its move log."""

    status: str
    version: int
    kind: str
    seed: int
    options: dict[str, Any]
    players: list[str]
    state: dict[str, Any] | None
    moves: list[Move]

    def game(self) -> engine.Game:
        assert self.state is not None
        return engine.load(self.state)


def read_game(db_path: Path, game_id: int) -> Snapshot:
    """Reads the bot's database read-only, in one transaction (one snapshot)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, isolation_level=None, timeout=5)
    try:
        conn.execute("BEGIN")
        status, version, kind, seed, options, state = conn.execute(
            "SELECT status, version, kind, seed, options, state FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        players = [
            str(r[0])
            for r in conn.execute(
                "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
        moves = [
            (r[0], r[1], r[2])
            for r in conn.execute(
                "SELECT seq, user_id, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        conn.execute("COMMIT")
    finally:
        conn.close()
    return Snapshot(
        status,
        version,
        kind,
        seed,
        json.loads(options),
        players,
        json.loads(state) if state else None,
        moves,
    )


def wait_for_commit_blocking(db_path: Path, game_id: int, version: int, timeout: float) -> bool:
    """Polls until the game's version passes `version`, WITHOUT yielding to the event loop:
    the fake (same loop) cannot take the bot's answer meanwhile."""
    deadline = time.monotonic() + timeout
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, isolation_level=None, timeout=5)
    try:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
            if row[0] > version:
                return True
            time.sleep(0.0005)
    finally:
        conn.close()
    return False


def check_log(snap: Snapshot, expected: list[Move]) -> None:
    """The move log is exactly what was acknowledged (plus applied in-flight moves), the version
    counts it, and replaying it from the seed rebuilds the stored state to the byte."""
    assert snap.moves == expected, "move log differs from the acknowledged moves"
    check_replay(snap)


def check_replay(snap: Snapshot) -> None:
    """The move log is numbered 1, 2, ..., the version counts it, and replaying it from the
    seed rebuilds the stored state to the byte."""
    assert [seq for seq, _, _ in snap.moves] == list(range(1, len(snap.moves) + 1))
    assert snap.version == len(snap.moves)
    game = engine.new_game(snap.kind, snap.players, snap.seed, snap.options)
    for _, user, action in snap.moves:
        game.apply(str(user), action)
    assert json.loads(json.dumps(game.to_dict())) == snap.state, "state != replayed move log"


# ---------------------------------------------------------------------------------------------
# The policy: what a player does next
# ---------------------------------------------------------------------------------------------


def choose(rng: random.Random, game: engine.Game) -> tuple[str, str]:
    """(player, action id): call UNO when you can, prefer playing to drawing, never catch
    (catching lengthens the game). Plain random UNO play can take thousands of moves."""
    actors = sorted(game.actors())
    assert actors, "an unfinished game waits for nobody"
    callers = [p for p in actors if any(a.id == "uno" for a in game.legal_actions(p))]
    if callers:
        return callers[0], "uno"
    current = game.view(None).get("current")
    player = current if current in actors else rng.choice(actors)
    legal = [a.id for a in game.legal_actions(player)]
    plays = [a for a in legal if a.startswith(("play", "color", "challenge", "accept"))]
    calm = [a for a in legal if not a.startswith("catch")]
    return player, rng.choice(plays or calm or legal)


# ---------------------------------------------------------------------------------------------
# Users clicking
# ---------------------------------------------------------------------------------------------


@dataclass
class Final:
    """The click that applies a move: a button, or a value in a select menu."""

    message: FakeMessage
    custom_id: str
    value: str | None = None  # for a select


@dataclass
class Stats:
    """What the run went through, printed at the end (pytest -s) and checked for coverage."""

    moves_via_table_button: int = 0
    moves_via_picker: int = 0
    moves_via_my_hand: int = 0
    select_menus: int = 0
    picker_steps: int = 0  # colour / opponent steps of a wild
    old_table_play_opened_picker: int = 0
    stale_picker_refusals: int = 0
    old_table_button_worked_after_restart: int = 0
    old_picker_button_worked_after_restart: int = 0
    in_flight: dict[str, str] = field(default_factory=dict)  # kill mode -> what became of it


@dataclass
class Crash:
    """A move during which the bot was killed, after the restart."""

    user: str
    move: Move
    interaction: FakeInteraction
    final: Final
    table: FakeMessage  # the table message as it was when the click was made
    acknowledged: bool
    applied: bool


class Table:
    """Plays game `game_id` through the fake Discord, as its users."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: BotProcess,
        game_id: int,
        seed: int,
        channel_id: int | None = None,
        players: tuple[str, ...] = PLAYERS,
        reader: Callable[[int], Snapshot] | None = None,
    ) -> None:
        self.fake = fake
        self.bot = bot
        self.game_id = game_id
        # How the test reads the bot's database (default: its SQLite file).
        self.reader = reader or (lambda game_id: read_game(bot.db_path, game_id))
        self.channel_id = fake.channel_id if channel_id is None else channel_id
        self.rng = random.Random(seed)
        self.names = {str(fake.user_id(n)): n for n in players}
        self.expected: list[Move] = []  # the move log as it must be
        self.latency: list[float] = []  # seconds from click to answer, for applying clicks
        self.stats = Stats()
        self._act = re.compile(rf"g:{game_id}:(\d+):\*")

    def snap(self) -> Snapshot:
        return self.reader(self.game_id)

    def next_move(self) -> tuple[str, str, bool]:
        """(player id, action, whether it ends the game) by the policy, from the database."""
        snap = self.snap()
        assert snap.status == "active"
        player, action = choose(self.rng, snap.game())
        after = snap.game()
        after.apply(player, action)
        return player, action, after.finished

    # -- reading the channel -----------------------------------------------------------------
    def table(self) -> FakeMessage | None:
        """The newest table message that still has buttons."""
        for message in reversed(self.fake.messages_in(self.channel_id, ephemeral=False)):
            if any(self._act.fullmatch(c) for c in message.custom_ids()):
                return message
        return None

    def table_version(self, message: FakeMessage) -> int:
        for cid in message.custom_ids():
            if match := self._act.fullmatch(cid):
                return int(match[1])
        raise AssertionError(f"message {message.id} is not a table")

    async def current_table(self, version: int) -> FakeMessage:
        """Waits until the bot has brought the table to `version`."""

        def ready() -> FakeMessage | None:
            table = self.table()
            return table if table and self.table_version(table) == version else None

        return await self.fake.wait_for(ready, timeout=STEP)

    # -- clicking ----------------------------------------------------------------------------
    async def answered(self, ix: FakeInteraction, rtype: int) -> FakeMessage:
        rec = await ix.response(timeout=STEP)
        assert rec.type == rtype, f"{ix!r}: callback {rec.type} {rec.data}"
        assert rec.message is not None
        return rec.message

    async def open_picker(self, user: str, via: FakeMessage, version: int) -> FakeMessage:
        """Clicks "Play a card" (or "My hand" if stale) on a table message: an ephemeral picker."""
        custom_id = f"g:{self.game_id}:{version}:*"
        if custom_id not in via.custom_ids():
            custom_id = f"h:{self.game_id}"
        picker = await self.answered(await self.fake.click(user, via.id, custom_id), MESSAGE)
        assert picker.ephemeral and picker.visible_to == self.fake.user_id(user)
        return picker

    async def navigate(self, user: str, picker: FakeMessage, action: str) -> Final:
        """Walks the picker (card, then colour, then opponent) to the control applying `action`."""
        for _ in range(5):
            step: tuple[str, str, bool] | None = None  # (custom id, target, is a select)
            for comp in picker.interactive():
                cid = comp["custom_id"]
                if comp["type"] == 2 and cid.startswith(f"g:{self.game_id}:"):
                    targets = [cid.split(":", 3)[3]]
                elif comp["type"] == 3:
                    targets = [o["value"] for o in comp["options"]]
                else:
                    continue
                for target in targets:
                    if target == action:
                        if comp["type"] == 3:
                            self.stats.select_menus += 1
                            return Final(picker, cid, target)
                        return Final(picker, cid)
                    if action.startswith(target + ":") and step is None:
                        step = (cid, target, comp["type"] == 3)
            offered = f"{picker.custom_ids()} {picker.text}"
            assert step is not None, f"{action!r} is not offered: {offered}"
            cid, target, is_select = step
            if is_select:
                ix = await self.fake.select(user, picker.id, cid, [target])
            else:
                ix = await self.fake.click(user, picker.id, cid)
            picker = await self.answered(ix, UPDATE)
            self.stats.picker_steps += 1
        raise AssertionError(f"the picker never offered {action!r}")

    async def fire(self, user: str, final: Final) -> FakeInteraction:
        if final.value is not None:
            return await self.fake.select(user, final.message.id, final.custom_id, [final.value])
        return await self.fake.click(user, final.message.id, final.custom_id)

    async def prepare(
        self, player: str, action: str, table_current: bool, force_picker: bool = False
    ) -> tuple[str, int, FakeMessage, Final]:
        """Clicks up to (not including) the click that applies `action`.

        Returns (user name, version before the move, table message, the applying control).
        """
        version = self.snap().version
        user = self.names[player]
        if table_current:
            table = await self.current_table(version)
        else:
            # Any table with buttons will do, but there is one only once the bot has drawn it
            # (a few milliseconds after Start or after a bot's move made it a member's turn).
            table = await self.fake.wait_for(self.table, timeout=STEP)
        assert table is not None
        button = f"g:{self.game_id}:{version}:{action}"
        if (
            not force_picker
            and action.startswith(TABLE_VERBS)
            and button in table.custom_ids()
            and self.rng.random() < 0.5
        ):
            self.stats.moves_via_table_button += 1
            return user, version, table, Final(table, button)
        if self.table_version(table) == version:
            self.stats.moves_via_picker += 1
        else:
            self.stats.moves_via_my_hand += 1
        picker = await self.open_picker(user, table, version)
        return user, version, table, await self.navigate(user, picker, action)

    async def acknowledged(self, ix: FakeInteraction, user: str, action: str, version: int) -> None:
        """The bot answered: the move must already be committed, completely."""
        await self.answered(ix, UPDATE)
        assert ix.callback is not None
        self.latency.append(ix.callback.elapsed)
        self.expected.append((version + 1, self.fake.user_id(user), action))
        snap = self.snap()
        assert snap.version == version + 1, "answered before the move was committed"
        assert snap.moves[-1] == self.expected[-1]

    async def play_move(self, table_current: bool = True) -> None:
        player, action, _ = self.next_move()
        user, version, _, final = await self.prepare(player, action, table_current)
        await self.acknowledged(await self.fire(user, final), user, action, version)

    async def play_to_winning_move(self) -> tuple[str, str]:
        """Plays the policy's moves until the next one would end the game; that move, not
        played: (player id, action)."""
        for _ in range(MAX_MOVES):
            player, action, wins = self.next_move()
            if wins:
                return player, action
            await self.play_move()
        raise AssertionError("the game does not end")

    # -- crashing ----------------------------------------------------------------------------
    async def crash_move(self, mode: str, player: str, action: str) -> Crash:
        """Plays a move through the picker, SIGKILLs the bot at the moment `mode` names,
        restarts it, and checks that the move log holds exactly what it must."""
        user, version, table, final = await self.prepare(
            player, action, table_current=True, force_picker=True
        )
        ix = await self.fire(user, final)
        if mode == "after_ack":
            await ix.response(timeout=STEP)
            self.bot.kill_now()
        elif mode == "on_arrival":
            self.bot.kill_now()  # the click is on the wire; the bot has hardly seen it
        elif mode == "in_flight":
            # Somewhere within the bot's usual time to answer.
            await asyncio.sleep(self.rng.uniform(0.0, max(self.latency, default=0.01)))
            self.bot.kill_now()
        elif mode == "before_answer":
            # The fake shares this event loop: while we poll synchronously it takes no answer.
            # Drop the answer the dying bot may already have written, then kill it.
            self.fake.inject_error(
                "POST", rf"/interactions/{ix.id}/[^/]+/callback", 404, code=10062
            )
            assert wait_for_commit_blocking(self.bot.db_path, self.game_id, version, STEP)
            self.bot.kill_now()
        elif mode == "settled":
            await ix.response(timeout=STEP)
            await self.current_table(version + 1)
            self.bot.kill_now()
        else:
            raise ValueError(mode)
        await self.bot.restart()

        snap = self.snap()
        move = (version + 1, self.fake.user_id(user), action)
        acked = ix.callback is not None  # Discord got an answer
        assert ix.callback is None or ix.callback.type == UPDATE, ix.callback
        applied = snap.version == version + 1
        assert snap.version in (version, version + 1)
        assert applied or not acked, "an acknowledged move was lost"
        if mode in ("after_ack", "settled"):
            assert acked
        if mode == "before_answer":
            assert applied and not acked
        if mode in ("on_arrival", "in_flight"):
            outcome = "not applied"
            if applied:
                outcome = "acknowledged" if acked else "applied, unanswered"
            self.stats.in_flight[mode] = outcome
        if applied:
            self.expected.append(move)
        check_log(snap, self.expected)
        return Crash(user, move, ix, final, table, acked, applied)

    async def crash(self, mode: str) -> None:
        """A mid-game crash, then buttons from before it: the old table, the old picker."""
        player, action, _ = self.next_move()
        crash = await self.crash_move(mode, player, action)
        user, table, final = crash.user, crash.table, crash.final
        version = self.snap().version

        latest = self.table()
        assert latest is not None and latest.id == table.id, "the table moved during a restart"
        if self.table_version(table) != version:
            await self.expect_old_table_play(user, table)
        # A move stored but not yet shown when the bot died is shown once it is back: the
        # table catches up with no click (``Endings.redraw_unshown``).
        await self.current_table(version)
        if final.custom_id in final.message.custom_ids():
            # The picker was not answered: its button, clicked again after the restart...
            again = await self.fire(user, final)
            if not crash.applied:
                # ... plays the move now (and the bot brings the table up to date).
                await self.acknowledged(again, user, action, crash.move[0] - 1)
                self.stats.old_picker_button_worked_after_restart += 1
                return
            # ... is stale: the picker now says so and shows the current hand.
            shown = await self.answered(again, UPDATE)
            assert STALE in shown.text, shown.text
            assert self.snap().version == version
            self.stats.stale_picker_refusals += 1
        # The next move goes through the old table: its current buttons, or My hand.
        if self.table_version(table) == version:
            self.stats.old_table_button_worked_after_restart += 1
        await self.play_move(table_current=False)

    async def expect_old_table_play(self, user: str, table: FakeMessage) -> None:
        """Play on a table a version behind (its edit still on its way) opens the picker on
        the game as it is now, and changes nothing."""
        before = self.snap().version
        old = f"g:{self.game_id}:{self.table_version(table)}:*"
        picker = await self.answered(await self.fake.click(user, table.id, old), MESSAGE)
        assert picker.ephemeral and STALE not in picker.text, picker.text
        assert self.snap().version == before
        self.stats.old_table_play_opened_picker += 1


def read_stats(db_path: Path) -> dict[int, tuple[int, int]]:
    """{user id: (played, won)} from the per-user stats table."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)
    try:
        rows = conn.execute("SELECT user_id, played, won FROM stats").fetchall()
    finally:
        conn.close()
    return {r[0]: (r[1], r[2]) for r in rows}


def read_ratings(db_path: Path, game_id: int) -> dict[str, Any]:
    """{"games": {user id: rated games}, "changes": the game's stored rating changes}."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)
    try:
        games = dict(conn.execute("SELECT user_id, rated FROM stats").fetchall())
        (changes,) = conn.execute("SELECT ratings FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        conn.close()
    return {"games": games, "changes": json.loads(changes) if changes else {}}


def announcements(
    fake: FakeDiscord, game_id: int, channel_id: int | None = None
) -> list[FakeMessage]:
    return [
        m
        for m in fake.messages_in(
            fake.channel_id if channel_id is None else channel_id, ephemeral=False
        )
        if "🏆" in m.content and f"game #{game_id}" in m.content
    ]


async def open_join_start(
    fake: FakeDiscord,
    kind: str,
    players: tuple[str, ...],
    options: dict[str, Any],
    channel_id: int | None = None,
) -> int:
    """The first player runs /newgame ``kind`` with ``options``, the others press Join and
    the first presses Start, each answered; the game's id."""
    host, *others = players
    ix = await fake.slash(host, f"newgame {kind}", options, channel_id=channel_id)
    assert (await ix.response(timeout=STEP)).type == MESSAGE
    lobby = ix.original
    assert lobby is not None
    game_id = int(lobby.component(prefix="l:")["custom_id"].split(":")[1])
    for name in others:
        click = await fake.click(name, lobby.id, f"l:{game_id}:join")
        assert (await click.response(timeout=STEP)).type == UPDATE
    click = await fake.click(host, lobby.id, f"l:{game_id}:start")
    assert (await click.response(timeout=STEP)).type == UPDATE
    return game_id


async def start_with_bots(
    fake: FakeDiscord,
    bot: BotProcess,
    host: str,
    options: dict[str, Any],
    seed: int,
    channel_id: int | None = None,
) -> Table:
    """``host`` opens an UNO lobby with bot seats (``options``) and starts it with no other
    member; the game, played as ``host`` with the policy seeded by ``seed``."""
    ix = await fake.slash(host, "newgame uno", options, channel_id=channel_id)
    lobby = (await ix.response(timeout=STEP)).message
    assert lobby is not None
    game_id = int(lobby.component(prefix="l:")["custom_id"].split(":")[1])
    start = await fake.click(host, lobby.id, f"l:{game_id}:start")
    assert (await start.response(timeout=STEP)).type == UPDATE
    return Table(fake, bot, game_id, seed, channel_id, (host,))


async def start_uno(
    fake: FakeDiscord,
    bot: BotProcess,
    channel_id: int | None = None,
    players: tuple[str, ...] = PLAYERS,
    seed: int = SEED,
    options: dict[str, Any] | None = None,
    reader: Callable[[int], Snapshot] | None = None,
) -> Table:
    """The first player opens a lobby (UNO to 50, no turn timer), the others join, and the
    first starts."""
    chosen = {"target": 50, **(options or {})}
    return await start_game(fake, bot, "uno", channel_id, players, seed, chosen, reader)


async def start_game(
    fake: FakeDiscord,
    bot: BotProcess,
    kind: str,
    channel_id: int | None = None,
    players: tuple[str, ...] = PLAYERS,
    seed: int = SEED,
    options: dict[str, Any] | None = None,
    reader: Callable[[int], Snapshot] | None = None,
) -> Table:
    """The first player opens a lobby of ``kind`` (no turn timer unless ``options`` say),
    the others join, and the first starts."""
    chosen = {"turn_timer": 0, **(options or {})}
    game_id = await open_join_start(fake, kind, players, chosen, channel_id)
    play = Table(fake, bot, game_id, seed, channel_id, players, reader)
    snap = play.snap()
    assert snap.status == "active" and snap.version == 0
    members = [str(fake.user_id(n)) for n in players]
    assert [p for p in snap.players if p in members] == members  # bot seats may sit between
    return play
