"""The benchmark's runs: N live games at rates R (real bot, then the same clicks against the
do-nothing bot), one game's table edits answered 429, and start-up with a big database.

A cell (N, R), by default: the real bot is clicked continuously at R, a warm-up of
`warmup_seconds` (unmeasured: the bot's wall-clock timers, turn reminders above all, reach
their steady state) and then the measured clicks on the same beat; its CPU and REST calls are
counted over exactly the measured clicks' time (count / R seconds from the first): in a steady
state what the warm-up's work spills into it matches what the measured clicks' work spills out.
Then the real bot is paused (SIGSTOP) and the floor replays the last `warmup` warm-up clicks
(its own warm-up, unmeasured) and the measured clicks at their offsets; the real bot resumes
(SIGCONT) afterwards. With `alternate` (the harness before): blocks of about 3 s, real bot then
floor, in turns, each window ending once the real bot is idle.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import re
import shutil
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.loadgen.driver import (
    ANSWER_TIMEOUT,
    Click,
    Driver,
    ReplayResult,
    Slot,
    replay,
)
from bench.loadgen.gamedb import (
    KIND_PLAYERS,
    GameReader,
    GameState,
    fill_stored_games,
    fresh_schema,
)
from bench.loadgen.looplag import LoopLag, LoopProfile
from bench.loadgen.policy import Move, choose, control_for
from bench.loadgen.proc import REPO_ROOT, BotProcess, remove_database
from bench.loadgen.stamper import Stamper
from bench.loadgen.stats import rest_by_move_route, rest_routes, tracebacks, went_wrong
from tests.fakediscord import FakeDiscord, FakeMessage

KINDS = tuple(KIND_PLAYERS)  # slot i hosts KINDS[i % 5]


@dataclass
class Options:
    workdir: Path
    bot_root: Path = REPO_ROOT
    bot_env: dict[str, str] = field(default_factory=dict)
    seed: int = 1
    clicks: int = 1000
    # The floor's unmeasured warm-up: the last `warmup` clicks of the real bot's warm-up,
    # replayed before the measured ones (with `alternate`: the warm-up of both, each cell).
    warmup: int = 100
    setup_rate: float = 40.0  # set-up clicks per second at most...
    setup_inflight: int = 6  # ...and at most this many waiting for their answer
    postgresql: str = ""  # a PostgreSQL server's URL: the bot stores games there, not SQLite
    # Tables (channels and members) in the fake guild, whatever N: every size meets the same
    # world, so memory differs between sizes by the live games alone, not by a bigger guild
    # for discord.py to parse and cache at log-in. 0: exactly N.
    world: int = 0
    phases: bool = False  # the bot writes where each move's answer goes (RUN_BOT_PHASES)
    # Continuous clicking (default): the real bot's unmeasured warm-up at R, in seconds; the
    # floor replays the last `warmup` clicks of it. `alternate`: the old 3 s blocks in turns.
    warmup_seconds: float = 90.0
    alternate: bool = False
    # The driver's blocking work waits while a click awaits its answer (Driver.gate).
    gate: bool = True
    loop_profile: bool = False  # time every callback of the event loop, by who runs it
    # The floor plus what the issue makes every move cost (`bench/boundbot.py`), replaying
    # the same clicks after the floor (continuous mode only).
    bound: bool = False
    # Answers stamped as they reach a forwarder process of their own (`stamper.py`), not on
    # the fake's event loop, where the bot's own edits delayed them. False: the fake's stamp.
    stamp: bool = True
    stamped_by: str = "the fake's event loop"  # what stamped them, for the report (`run_size`)


@dataclass
class Marks:
    """Counters at one moment, to take differences over a window."""

    requests: int
    bot_cpu: float
    own_cpu: float
    wall: float
    log: int
    message_id: int
    lag: int = 0  # index into the loop monitor's samples
    other_cpu: float = 0.0  # the other bot's CPU (the one not measured now)

    @classmethod
    def now(
        cls,
        fake: FakeDiscord,
        bot: BotProcess,
        lag: LoopLag | None = None,
        other: BotProcess | None = None,
    ) -> Marks:
        return cls(
            len(fake.requests),
            bot.cpu(),
            time.process_time(),
            time.monotonic(),
            bot.log_size(),
            max(fake.messages, default=0),
            lag.mark() if lag is not None else 0,
            other.cpu() if other is not None else 0.0,
        )


@dataclass
class Cell:
    """One (N, R): the real bot's run and the null bot's replay of the same clicks."""

    n: int
    rate: float
    warm: list[Click]
    clicks: list[Click]
    elapsed: float = 0.0
    late: int = 0
    settled: bool = True
    bot_cpu: float = 0.0
    own_cpu: float = 0.0
    wall: float = 0.0
    routes: Counter[str] = field(default_factory=Counter)
    by_move_route: dict[str, Counter[str]] = field(default_factory=dict)  # rest_by_move_route
    by_move_kind: dict[str, Counter[str]] = field(default_factory=dict)  # the same, by game
    http_errors: Counter[str] = field(default_factory=Counter)
    went_wrong: int = 0
    tracebacks: Counter[str] = field(default_factory=Counter)
    issues: Counter[str] = field(default_factory=Counter)
    null: ReplayResult | None = None
    null_cpu: float = 0.0
    null_own_cpu: float = 0.0
    null_wall: float = 0.0
    null_tracebacks: Counter[str] = field(default_factory=Counter)
    bound: ReplayResult | None = None  # with Options.bound: boundbot's replay
    bound_cpu: float = 0.0
    mode: str = "continuous"  # or "alternate"
    gated: bool = True  # the driver's blocking work waited while a click was in flight
    warm_seconds: float = 0.0  # the real bot's warm-up, in wall time
    seconds: float = 0.0  # the whole cell, wall time
    # How late the event loop ran a timer (seconds), in the real bot's windows and the floor's.
    lag_bot: list[float] = field(default_factory=list)
    lag_floor: list[float] = field(default_factory=list)
    # The same, only those due while a measured click awaited its answer.
    lag_bot_flight: list[float] = field(default_factory=list)
    lag_floor_flight: list[float] = field(default_factory=list)
    # What the real bot did while the floor was measured (its leftover work in the alternating
    # mode; nothing when it is paused): CPU seconds, REST calls.
    bot_cpu_in_floor: float = 0.0
    bot_calls_in_floor: int = 0
    # With `loop_profile`: the callbacks that began while a measured click awaited its answer,
    # by phase ("bot", "floor") and who ran them: their durations (seconds).
    loop_profile: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    @property
    def moves(self) -> list[Click]:
        return [c for c in self.clicks if c.kind == "move" and c.applied]

    @property
    def measured(self) -> list[Click]:
        """Clicks on components (slash commands are not replayed, so not compared)."""
        return [c for c in self.clicks if c.kind != "slash"]


@dataclass
class VictimClick:
    what: str
    latency: float | None
    note: str = ""


@dataclass
class Result429:
    n: int
    rate: float
    victim_kind: str
    others: list[Click]
    victim: list[VictimClick]
    table_delay: float | None  # the victim's move answered -> its table shows it
    control: list[Click] = field(default_factory=list)  # the same, just before, without a 429


@dataclass
class SizeResult:
    n: int
    cells: list[Cell]
    setup_seconds: float
    rss_zero: int
    rss_live: int  # after the cells' clicking (what playing adds: caches, allocator arenas)
    games_started: int
    result_429: Result429 | None = None
    setup_issues: Counter[str] = field(default_factory=Counter)
    phases: dict[int, dict[str, float]] = field(default_factory=dict)  # by interaction id
    rss_setup: int = 0  # the live games just started, before any cell's clicks
    # Stamped by the forwarder: how much later the fake's loop got to each answer (by
    # interaction id, seconds): the delay a stamp on that loop carried.
    answer_delays: dict[int, float] = field(default_factory=dict)


def read_phases(path: Path) -> dict[int, dict[str, float]]:
    """The bot's stamps per applied move (tests/fakediscord/run_bot.py, RUN_BOT_PHASES)."""
    if not path.exists():
        return {}
    records = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {int(r.pop("id")): r for r in records}


def _issue_kind(text: str) -> str:
    """An issue's category: numbers elided, the list of offered ids cut off."""
    return re.sub(r"\d+", "#", text.split(" on [", 1)[0])[:140]


# ---------------------------------------------------------------------------------------------
# N live games at rates R
# ---------------------------------------------------------------------------------------------


def make_world(n: int, world: int = 0) -> tuple[FakeDiscord, list[tuple[str, int, list[str]]]]:
    """A fake guild with max(n, world) channels, each with its own players (kind per KINDS,
    in turn); the first n are the tables to play at."""
    plan = []
    names: list[str] = []
    for i in range(max(n, world)):
        kind = KINDS[i % len(KINDS)]
        players = [f"u{i}s{j}" for j in range(KIND_PLAYERS[kind])]
        names += players
        plan.append((kind, i, players))
    fake = FakeDiscord(users=names)
    slots = []
    for kind, i, players in plan:
        channel = fake.add_text_channel(f"table-{i}")
        slots.append((kind, channel.id, players))
    return fake, slots[:n]


def size_workdir(root: Path, n: int) -> Path:
    """One size's folder, emptied of an earlier run's games: a bot started on them would
    redraw their tables at start, on messages this run's fake never had (404s, errors)."""
    workdir = root / f"n{n}"
    workdir.mkdir(parents=True, exist_ok=True)
    remove_database(workdir / "bot.db")
    (workdir / "phases.jsonl").unlink(missing_ok=True)
    return workdir


async def run_size(
    n: int, rates: list[float], opts: Options, *, rate_429: float | None, progress: bool = True
) -> SizeResult:
    """Both bots stay connected to one fake; the fake's dispatches are routed to one or the
    other: per rate, the real bot's clicks, then the same clicks to the floor while the real
    bot is paused (`run_cell`; with `alternate`, in turns of about 3 s, so both meet the same
    background load of this shared machine)."""
    fake, layout = make_world(n, opts.world)
    workdir = size_workdir(opts.workdir, n)
    # The bot's deals follow the seed too (run_bot.py), so runs differ only in their timing.
    env = {"RUN_BOT_SEED": str(opts.seed), **opts.bot_env}
    phases_path = workdir / "phases.jsonl"
    if opts.phases:
        env["RUN_BOT_PHASES"] = str(phases_path)
    if opts.postgresql:
        env["DATABASE_URL"] = await fresh_schema(opts.postgresql, f"load_n{n}")
    async with fake, contextlib.AsyncExitStack() as stack:
        base_url, stamper = None, None
        if opts.stamp:
            stamper = await stack.enter_async_context(Stamper(fake.port))
            fake.answer_arrived, base_url = stamper.arrived, stamper.base_url
            priority = "real-time" if stamper.realtime else "normal"
            opts.stamped_by = (
                f"a forwarder process (`bench/loadgen/stamper.py`, {priority} priority)"
            )
        bot = BotProcess(fake, workdir, root=opts.bot_root, extra_env=env, base_url=base_url)
        null = BotProcess(fake, workdir, module="bench.nullbot", name="nullbot", base_url=base_url)
        bound = (
            BotProcess(
                fake,
                workdir,
                module="bench.boundbot",
                name="boundbot",
                db_path=workdir / "bound.db",
                extra_env={"BOUND_MARKS": str(workdir / "bound-marks.json")},
                base_url=base_url,
            )
            if opts.bound and not opts.alternate
            else None
        )
        driver: Driver | None = None
        reader: GameReader | None = None
        try:
            await bot.start()
            await null.start(commands=())
            real_session, null_session = bot.session_id, null.session_id
            assert real_session is not None and null_session is not None
            if bound is not None:
                remove_database(bound.db_path)
                await bound.start(commands=())
            pair = Pair(fake, bot, null, real_session, null_session, LoopLag(), bound)
            pair.to_real()
            rss_zero = await bot.settled_rss()
            reader = GameReader(env.get("DATABASE_URL") or bot.db_path)
            driver = Driver(fake, reader, opts.seed)
            for kind, channel_id, players in layout:
                driver.add_slot(kind, channel_id, [fake.user_id(p) for p in players])
            _say(progress, f"N={n}: starting {n} games (/newgame, Join, Start)")
            driver.hold_live = True
            driver.start()
            setup_start = time.monotonic()
            await driver.run(
                opts.setup_rate,
                until=lambda: all(s.live for s in driver.slots),
                duration=max(180.0, n * 1.2),
                max_inflight=opts.setup_inflight,
            )
            setup_seconds = time.monotonic() - setup_start
            live = sum(s.live for s in driver.slots)
            if live < n:
                raise RuntimeError(
                    f"only {live} of {n} games could be started in {setup_seconds:.0f} s; "
                    f"see {bot.log_path}"
                )
            await driver.settle()
            # The live games as they are, before the cells' clicking (the warm-up alone is
            # thousands of clicks, whose caches and allocator arenas are no game's).
            await bot.idle()
            rss_setup = await bot.settled_rss()
            driver.release()
            setup_issues = Counter(_issue_kind(i.what) for i in driver.issues)
            driver.issues.clear()

            cells = []
            for rate in rates:
                if opts.alternate:
                    warm = f"{opts.warmup} warm-up clicks"
                else:
                    warm = f"{warmup_clicks(rate, opts)} warm-up clicks ({opts.warmup} replayed)"
                _say(progress, f"N={n} R={rate:g}: {warm} + {opts.clicks} clicks")
                cells.append(await run_cell(pair, driver, n, rate, opts))
            await bot.idle()
            rss_live = await bot.settled_rss()
            result_429 = None
            if rate_429 is not None:
                await bot.idle()
                _say(progress, f"N={n}: one table answered 429, others clicked at {rate_429:g}/s")
                result_429 = await scenario_429(fake, bot, driver, n, rate_429)
            games_started = sum(s.games_started for s in driver.slots)
        finally:
            if stamper is not None:
                opts.stamped_by += f": {stamper.found} answers, {stamper.missed} not seen there"
            if driver is not None:
                await driver.close()
            if reader is not None:
                reader.close()
            await null.stop()
            if bound is not None:
                await bound.stop()
            await bot.stop()
    return SizeResult(
        n,
        cells,
        setup_seconds,
        rss_zero,
        rss_live,
        games_started,
        result_429,
        setup_issues,
        read_phases(phases_path) if opts.phases else {},
        rss_setup,
        dict(fake.answer_delays),
    )


@dataclass
class Pair:
    """The real bot and the floor, both connected; `to_real` / `to_null` route the clicks."""

    fake: FakeDiscord
    bot: BotProcess
    null: BotProcess
    real_session: str
    null_session: str
    lag: LoopLag = field(default_factory=LoopLag)
    bound: BotProcess | None = None

    def to_real(self) -> None:
        self.fake.route_to(self.real_session)

    def to_null(self) -> None:
        self.fake.route_to(self.null_session)


def block_size(rate: float) -> int:
    """Clicks per turn of each bot with `alternate`: about 3 s of clicking, at least 50."""
    return max(50, round(rate * 3))


def collect_garbage() -> None:
    """A full collection now, outside the measured windows, then no collector pauses in them:
    the fake's heap grows with every message and edit it keeps, and a full pass over it would
    stall this process (the fake) for tens of ms, in the middle of somebody's click."""
    gc.collect()
    gc.freeze()


def warmup_clicks(rate: float, opts: Options) -> int:
    """The continuous mode's warm-up: `warmup_seconds` at `rate`, and at least the `warmup`
    clicks the floor replays as its own warm-up."""
    return max(opts.warmup, round(opts.warmup_seconds * rate))


async def run_cell(pair: Pair, driver: Driver, n: int, rate: float, opts: Options) -> Cell:
    gc.disable()
    driver.gate = opts.gate
    pair.lag.start()
    profile = LoopProfile() if opts.loop_profile else None
    if profile is not None:
        profile.start()
    started = time.monotonic()
    try:
        if opts.alternate:
            cell = await _run_cell_alternate(pair, driver, n, rate, opts)
        else:
            cell = await _run_cell_continuous(pair, driver, n, rate, opts)
        cell.gated = opts.gate
        cell.seconds = time.monotonic() - started
        lag = pair.lag
        cell.lag_bot_flight = lag.in_flight(
            (c.sent_at, c.sent_at + c.latency) for c in cell.measured if c.latency is not None
        )
        items = cell.null.items if cell.null else []
        floor_flights = [
            (i.ix.dispatched_at, i.ix.dispatched_at + i.latency)
            for i in items
            if i.ix is not None and i.latency is not None
        ]
        cell.lag_floor_flight = lag.in_flight(floor_flights)
        if profile is not None:
            profile.stop()
            cell.loop_profile = {
                "bot": profile.in_flight(
                    (c.sent_at, c.sent_at + c.latency)
                    for c in cell.measured
                    if c.latency is not None
                ),
                "floor": profile.in_flight(floor_flights),
            }
        return cell
    finally:
        if profile is not None:
            profile.stop()
        pair.lag.stop()
        driver.gate = False
        gc.enable()


def _count_window(
    cell: Cell, fake: FakeDiscord, driver: Driver, block: list[Click], start: Marks, end: Marks
) -> None:
    """Adds a window of the real bot's (from `start` to `end`) CPU, REST calls and errors,
    and the REST calls charged to the applied moves of `block`, to the cell."""
    cell.bot_cpu += end.bot_cpu - start.bot_cpu
    cell.own_cpu += end.own_cpu - start.own_cpu
    cell.wall += end.wall - start.wall
    window = fake.requests[start.requests : end.requests]
    routes, errors = rest_routes(window, fake)
    cell.routes += routes
    moves = [(c.slot, c.sent_at, c.route) for c in block if c.kind == "move" and c.applied]
    times = fake.request_times[start.requests : end.requests]
    for route, counts in rest_by_move_route(
        window, times, moves, driver.slot_of_channel, fake
    ).items():
        cell.by_move_route.setdefault(route, Counter()).update(counts)
    by_kind = [(slot, at, KINDS[slot % len(KINDS)]) for slot, at, _ in moves]
    for kind, counts in rest_by_move_route(
        window, times, by_kind, driver.slot_of_channel, fake
    ).items():
        cell.by_move_kind.setdefault(kind, Counter()).update(counts)
    cell.http_errors += errors


def _count_floor(
    cell: Cell, fake: FakeDiscord, lag: LoopLag, done: ReplayResult, start: Marks, end: Marks
) -> None:
    """Adds a window of the floor's replay to the cell, and what the real bot did meanwhile."""
    assert cell.null is not None
    cell.null.items += done.items
    cell.null.elapsed += done.elapsed
    cell.null.late += done.late
    cell.null_cpu += end.bot_cpu - start.bot_cpu
    cell.null_own_cpu += end.own_cpu - start.own_cpu
    cell.null_wall += end.wall - start.wall
    cell.lag_floor += lag.window(start.lag, end.lag)
    cell.bot_cpu_in_floor += end.other_cpu - start.other_cpu
    calls, _ = rest_routes(fake.requests[start.requests : end.requests], fake)
    cell.bot_calls_in_floor += sum(v for k, v in calls.items() if k != ANSWER)


ANSWER = "answer (interaction callback)"  # stats.route_of's name for the floor's only call


def measured_replay(
    warm: list[Click], block: list[Click], tail: int
) -> tuple[list[Click], list[float], int]:
    """What the floor replays in the continuous mode: the last `tail` warm-up clicks (its own
    warm-up) then the measured ones, each at its offset from the first (as the real bot got
    them: one beat); and the index of the first measured click."""
    clicks = [*(warm[-tail:] if tail > 0 else []), *block]
    if not clicks:
        return [], [], 0
    base = clicks[0].sent_at
    return clicks, [c.sent_at - base for c in clicks], len(clicks) - len(block)


async def _run_cell_continuous(
    pair: Pair, driver: Driver, n: int, rate: float, opts: Options
) -> Cell:
    fake, bot, null, lag = pair.fake, pair.bot, pair.null, pair.lag
    await bot.idle()
    collect_garbage()
    warm: list[Click] = []
    beat = time.monotonic()
    await driver.run(rate, count=warmup_clicks(rate, opts), record=warm, start=beat)
    warm_seconds = time.monotonic() - beat
    # The measured clicks keep the warm-up's beat (if the warm-up fell behind, from now on).
    first = max(beat + len(warm) / rate, time.monotonic())
    driver.issues.clear()
    cell = Cell(n, rate, warm, [], mode="continuous", warm_seconds=warm_seconds)
    cell.null = ReplayResult()
    block: list[Click] = []
    wait = first - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    start = Marks.now(fake, bot, lag)
    bot.profile_window(True)
    elapsed, late = await driver.run(rate, count=opts.clicks, record=block, start=start.wall)
    # The window: the measured clicks' own time, count / R from the first, whatever their
    # work's tail (in a steady state it matches the warm-up's tail counted at the start).
    wait = start.wall + len(block) / rate - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    end = Marks.now(fake, bot, lag)
    bot.profile_window(False)
    cell.lag_bot = lag.window(start.lag, end.lag)
    cell.clicks, cell.elapsed, cell.late = block, elapsed, late
    _count_window(cell, fake, driver, block, start, end)
    cell.settled = await driver.settle()  # their answers and tables (not counted as load)
    cell.went_wrong = went_wrong(fake, start.message_id)
    cell.tracebacks = tracebacks(bot.output(start.log))
    cell.issues = Counter(_issue_kind(i.what) for i in driver.issues)
    for click in cell.clicks:
        if click.note:
            cell.issues[click.note] += 1

    # The floor, while the real bot is stopped: it neither runs nor loads the machine.
    bot.pause()
    try:
        pair.to_null()
        collect_garbage()
        await null.idle()
        clicks, offsets, first_measured = measured_replay(warm, block, opts.warmup)
        marks: list[Marks] = []
        log_start = null.log_size()

        def measure() -> None:
            marks.append(Marks.now(fake, null, lag, bot))

        with driver.frozen():
            done = await replay(fake, clicks, offsets=offsets, mark=(first_measured, measure))
        null_end = Marks.now(fake, null, lag, bot)
        measured = {id(c) for c in block}
        done.items = [i for i in done.items if id(i.click) in measured]
        null_start = marks[0] if marks else null_end
        done.elapsed = null_end.wall - null_start.wall
        _count_floor(cell, fake, lag, done, null_start, null_end)
        cell.null_tracebacks += tracebacks(null.output(log_start))
        if pair.bound is not None:
            await _bound_replay(pair, pair.bound, driver, cell, clicks, offsets, first_measured)
    finally:
        pair.to_real()
        bot.resume()
    driver.issues.clear()  # slots that waited for the paused bot
    return cell


async def _bound_replay(
    pair: Pair,
    bound: BotProcess,
    driver: Driver,
    cell: Cell,
    clicks: list[Click],
    offsets: list[float],
    first_measured: int,
) -> None:
    """The same replay as the floor's, to `bench/boundbot.py`, told which clicks applied a
    move (and which of those were made on the table) by the replayed messages' ids."""
    fake = pair.fake
    assert bound.session_id is not None
    fake.route_to(bound.session_id)
    marks_path = Path(bound.env["BOUND_MARKS"])
    done_path = Path(f"{marks_path}.ok")

    async def tell(copies: list[tuple[Click, int]]) -> None:
        marks = {
            str(message_id): "table" if click.route == "table" else "move"
            for click, message_id in copies
            if click.kind == "move" and click.applied
        }
        done_path.unlink(missing_ok=True)
        marks_path.write_text(json.dumps(marks))
        os.kill(bound.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while not done_path.exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"boundbot did not load its marks; see {bound.log_path}")
            await asyncio.sleep(0.02)

    collect_garbage()
    await bound.idle()
    marks: list[Marks] = []
    with driver.frozen():
        done = await replay(
            fake,
            clicks,
            offsets=offsets,
            mark=(first_measured, lambda: marks.append(Marks.now(fake, bound))),
            before=tell,
        )
    end = Marks.now(fake, bound)
    measured = {id(c) for c in cell.clicks}
    done.items = [i for i in done.items if id(i.click) in measured]
    start = marks[0] if marks else end
    done.elapsed = end.wall - start.wall
    cell.bound = done
    cell.bound_cpu = end.bot_cpu - start.bot_cpu


async def _run_cell_alternate(
    pair: Pair, driver: Driver, n: int, rate: float, opts: Options
) -> Cell:
    fake, bot, null, lag = pair.fake, pair.bot, pair.null, pair.lag
    await bot.idle()
    collect_garbage()
    warm: list[Click] = []
    beat = time.monotonic()
    await driver.run(rate, count=opts.warmup, record=warm)
    warm_seconds = time.monotonic() - beat
    await driver.settle()
    pair.to_null()
    with driver.frozen():
        await replay(fake, warm)
    pair.to_real()
    driver.issues.clear()
    cell = Cell(n, rate, warm, [], mode="alternate", warm_seconds=warm_seconds)
    cell.null = ReplayResult()
    left = opts.clicks
    while left > 0:
        block: list[Click] = []
        await null.idle()
        collect_garbage()
        start = Marks.now(fake, bot, lag)
        bot.profile_window(True)
        elapsed, late = await driver.run(rate, count=min(left, block_size(rate)), record=block)
        cell.settled = await driver.settle() and cell.settled
        # The window ends once the bot has done what the clicks caused (trailing DM edits, a
        # backlog when it falls behind), so its CPU and calls count here and the floor's turn
        # does not share the machine with them.
        await bot.idle()
        bot.profile_window(False)
        end = Marks.now(fake, bot, lag)
        left -= len(block)
        cell.clicks += block
        cell.elapsed += elapsed
        cell.late += late
        cell.lag_bot += lag.window(start.lag, end.lag)
        _count_window(cell, fake, driver, block, start, end)
        cell.went_wrong += went_wrong(fake, start.message_id)
        cell.tracebacks += tracebacks(bot.output(start.log))

        pair.to_null()
        collect_garbage()
        log_start = null.log_size()
        null_start = Marks.now(fake, null, lag, bot)
        with driver.frozen():
            done = await replay(fake, block)
        null_end = Marks.now(fake, null, lag, bot)
        pair.to_real()
        _count_floor(cell, fake, lag, done, null_start, null_end)
        cell.null_tracebacks += tracebacks(null.output(log_start))
        if not block:
            break
    cell.issues = Counter(_issue_kind(i.what) for i in driver.issues)
    for click in cell.clicks:
        if click.note:
            cell.issues[click.note] += 1
    return cell


# ---------------------------------------------------------------------------------------------
# One table's edits answered 429
# ---------------------------------------------------------------------------------------------


async def _walk(
    fake: FakeDiscord,
    game_id: int,
    version: int,
    user: int,
    move: Move | None,
    message: FakeMessage,
    custom_id: str,
    what: str,
) -> list[VictimClick]:
    """Clicks from `custom_id` through the picker to the move (no move: that one click),
    answer by answer."""
    out: list[VictimClick] = []
    values: tuple[str, ...] | None = None
    final = False
    for _ in range(6):
        if values is None:
            ix = await fake.click(user, message.id, custom_id)
        else:
            ix = await fake.select(user, message.id, custom_id, list(values))
        try:
            rec = await ix.response(timeout=ANSWER_TIMEOUT)
        except TimeoutError:
            out.append(VictimClick(what, None, "unanswered"))
            return out
        out.append(VictimClick(what, rec.elapsed))
        if move is None or final or rec.message is None:
            return out
        control = control_for(rec.message, game_id, version, move)
        if control is None:
            out[-1].note = "move not offered"
            return out
        message, custom_id, values = rec.message, control.custom_id, control.values
        final = control.final
        what = "→ move" if final else "→ picker step"
    return out


async def scenario_429(
    fake: FakeDiscord, bot: BotProcess, driver: Driver, n: int, rate: float
) -> Result429:
    """The victim's move makes its table edit answer 429 (retry after 4 s); meanwhile the other
    games are clicked at `rate`, the victim's players press My hand and make the next move."""
    victim = _pick_victim(driver)
    deadline = time.monotonic() + 10
    while victim.pending is None and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    victim.excluded = True
    victim.pending = None
    # Control: the other games at the same rate for as long, without any 429.
    control: list[Click] = []
    await driver.run(rate, duration=8.0, record=control)
    await driver.settle()
    await bot.idle()
    reader = driver.reader
    assert victim.game_id is not None
    gid = victim.game_id
    others: list[Click] = []
    background: asyncio.Task[tuple[float, int]] | None = None
    clicks: list[VictimClick] = []
    snap: GameState | None = None
    move: Move | None = None
    table: FakeMessage | None = None
    for _attempt in range(5):
        snap = reader.game(gid)
        assert snap is not None and snap.status == "active"
        await victim.wait_table(snap.version)
        table = victim.table()
        assert table is not None
        move = choose(victim.rng, victim.kind, snap.game())
        assert move is not None
        if background is None:
            # The next edit of this table (the victim's move's) is answered 429, once.
            fake.inject_error(
                "PATCH",
                rf"/channels/{victim.channel_id}/messages/{table.id}",
                429,
                retry_after=4.0,
                times=1,
            )
            background = asyncio.create_task(driver.run(rate, duration=8.0, record=others))
            await asyncio.sleep(0.5)
        clicks += await _walk(
            fake,
            gid,
            snap.version,
            int(move.player),
            move,
            table,
            f"g:{gid}:{snap.version}:*",
            "open picker",
        )
        done = reader.move(gid, snap.version + 1)
        if done is not None and done[0] == int(move.player):
            break
        last = fake.interactions[max(fake.interactions)]  # the walk's last click
        text = last.callback.message.text if last.callback and last.callback.message else ""
        clicks[-1].note = f"not applied ({' '.join(text.split())[:60]!r}); tried another move"
    assert background is not None and snap is not None and move is not None and table is not None
    answered_at = time.monotonic()
    # While the table edit waits out its 429: another player's "My hand" (read-only), and the
    # next player's move through "My hand" (the table is stale), both at once.
    after = reader.game(gid)
    assert after is not None
    looker = next((p for p in victim.players if p != int(move.player)), victim.players[0])
    await asyncio.sleep(0.3)
    walks = [_walk(fake, gid, after.version, looker, None, table, f"h:{gid}", "My hand")]
    nxt = choose(victim.rng, victim.kind, after.game()) if after.status == "active" else None
    if nxt is not None:
        walks.append(
            _walk(
                fake,
                gid,
                after.version,
                int(nxt.player),
                nxt,
                table,
                f"h:{gid}",
                "next player: My hand",
            )
        )
    for found in await asyncio.gather(*walks):
        clicks += found
    shown = await victim.wait_table(snap.version + 1, timeout=15)
    await background
    await driver.settle()
    victim.excluded = False
    driver.spawn(victim.prepare())
    return Result429(
        n,
        rate,
        victim.kind,
        others,
        clicks,
        None if shown is None else shown - answered_at,
        control,
    )


def _pick_victim(driver: Driver) -> Slot:
    live = [s for s in driver.slots if s.live]
    uno = [s for s in live if s.kind == "uno"]
    return (uno or live)[0]


# ---------------------------------------------------------------------------------------------
# Start-up: empty database vs many stored games
# ---------------------------------------------------------------------------------------------


@dataclass
class StartupRun:
    stored: int
    connected: float
    first_answer: float | None
    rss: int
    answer: str = ""  # the first answer: callback type and the start of its text
    tracebacks: int = 0  # in the bot's log during this start


PROBE_USERS = tuple(f"player{i}" for i in range(8))


async def _probe_start(
    fake: FakeDiscord,
    opts: Options,
    db_path: Path,
    stored: int,
    game_id: int,
    user: int,
    workdir: Path,
) -> StartupRun:
    """Spawns the bot and clicks "My hand" of `game_id` every 100 ms from the moment it is
    connected; the first answer's time counts from the spawn."""
    probe = fake.add_bot_message(
        fake.channel_id,
        content="probe",
        components=[
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "My hand", "custom_id": f"h:{game_id}"}
                ],
            }
        ],
    )
    bot = BotProcess(fake, workdir, root=opts.bot_root, extra_env=opts.bot_env, db_path=db_path)
    log_start = bot.log_size()
    await bot.spawn()
    try:
        await bot.connected(timeout=60)
        connected = time.monotonic() - bot.spawned_at
        sent = []
        first: float | None = None
        deadline = time.monotonic() + 60
        while first is None and time.monotonic() < deadline:
            sent.append(await fake.click(user, probe.id, f"h:{game_id}"))
            await asyncio.sleep(0.1)
            done = [ix.dispatched_at + ix.callback.elapsed for ix in sent if ix.callback]
            if done:
                first = min(done) - bot.spawned_at
        await asyncio.sleep(1.0)
        rss = bot.rss()
    finally:
        await bot.stop()
    answered = sorted(
        (ix for ix in sent if ix.callback is not None), key=lambda ix: ix.dispatched_at
    )
    answer = ""
    if answered and answered[0].callback is not None:
        rec = answered[0].callback
        text = " ".join((rec.message.text if rec.message else "").split())
        answer = f"type {rec.type}: {text[:60]}"
    found = sum(tracebacks(bot.output(log_start)).values())
    return StartupRun(stored, connected, first, rss, answer, found)


async def run_startup(
    opts: Options, stored_total: int, stored_active: int, reps: int, progress: bool = True
) -> list[StartupRun]:
    workdir = opts.workdir / "startup"
    workdir.mkdir(parents=True, exist_ok=True)
    # A database the bot created and migrated, then filled by direct inserts.
    _say(progress, f"start-up: building a database of {stored_total} games")
    template = workdir / "stored.db"
    remove_database(template)
    runs = []
    # One fake for every start, so the stored games' guild, channel and users are its own.
    async with FakeDiscord(users=PROBE_USERS) as fake:
        maker = BotProcess(
            fake,
            workdir,
            root=opts.bot_root,
            extra_env=opts.bot_env,
            db_path=template,
            name="bot-migrate",
        )
        try:
            await maker.start()
        finally:
            await maker.stop()
        users = [fake.user_id(u) for u in PROBE_USERS]
        stored = fill_stored_games(
            template,
            total=stored_total,
            active=stored_active,
            guild_id=fake.guild_id,
            users=users,
            probe_channel=fake.channel_id,
            seed=opts.seed,
        )
        for rep in range(reps):
            for kind in ("empty", "stored"):
                _say(progress, f"start-up: {kind} database, run {rep + 1}/{reps}")
                db = workdir / f"{kind}-{rep}.db"
                remove_database(db)
                if kind == "empty":
                    run = await _probe_start(fake, opts, db, 0, 1, users[0], workdir)
                else:
                    shutil.copy(template, db)
                    run = await _probe_start(
                        fake,
                        opts,
                        db,
                        stored.total,
                        stored.probe_game,
                        stored.probe_user,
                        workdir,
                    )
                runs.append(run)
    return runs


def _say(progress: bool, text: str) -> None:
    if progress:
        print(f"[load] {text}", flush=True)
