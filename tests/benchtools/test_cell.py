"""A cell of the load benchmark, with stand-ins for the fake Discord and both bots: which
clicks each measured window holds, the beat the clicks keep, the real bot paused while the
floor is measured, and the driver's blocking work kept out of the clicks' flights."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bench.loadgen.driver import Click, Driver, Slot, replay
from bench.loadgen.scenarios import Options, Pair, measured_replay, run_cell, warmup_clicks

ANSWER_TIME = 0.002
REAL_CPU, FLOOR_CPU = 0.004, 0.001  # per click answered, seconds


@dataclass
class Bot:
    """A bot process: `cpu` grows by a fixed amount per click it answers."""

    session: str
    per_click: float
    cpu_used: float = 0.0
    paused: bool = False
    clicks: list[float] = field(default_factory=list)  # when each click reached it

    def cpu(self) -> float:
        return self.cpu_used

    def log_size(self) -> int:
        return 0

    def output(self, start: int = 0) -> str:
        return ""

    def profile_window(self, start: bool) -> None:
        pass

    async def idle(self) -> float:
        return 0.0

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False


class Interaction:
    def __init__(self, fake: Fake, answer: float) -> None:
        self.id = len(fake.answered) + 1
        self.dispatched_at = time.monotonic()
        self.refused = None
        self._answer = answer

    async def response(self, timeout: float) -> Any:
        await asyncio.sleep(self._answer)
        return SimpleNamespace(elapsed=self._answer, type=7, message=None)


class Fake:
    """What the driver, the replay and the cell use of tests.fakediscord.FakeDiscord: clicks
    go to the routed bot, whose answer is one REST call, at once."""

    def __init__(self, bots: list[Bot]) -> None:
        self.bots = {b.session: b for b in bots}
        self.routed = bots[0]
        self.observers: list[Any] = []
        self.messages: dict[int, Any] = {}
        self.channels: dict[int, Any] = {}
        self.requests: list[tuple[str, str, int]] = []
        self.request_times: list[float] = []
        self.answered: list[tuple[str, str, bool]] = []  # (bot, custom id, real bot paused)
        self.dispatching: list[bool] = []  # per click: was a driver preparation running

    def route_to(self, session: str) -> None:
        self.routed = self.bots[session]

    def add_bot_message(self, channel_id: int, **shot: Any) -> Any:
        message = SimpleNamespace(id=1000 + len(self.messages), channel_id=channel_id, **shot)
        self.messages[message.id] = message
        return message

    async def click(self, user: int, message_id: int, custom_id: str) -> Interaction:
        bot = self.routed
        assert not bot.paused
        bot.cpu_used += bot.per_click
        bot.clicks.append(time.monotonic())
        self.answered.append((bot.session, custom_id, self.bots["real"].paused))
        self.requests.append(("POST", f"/interactions/{len(self.requests)}/t/callback", 204))
        self.request_times.append(time.monotonic())
        return Interaction(self, ANSWER_TIME)


def message(channel_id: int) -> Any:
    return SimpleNamespace(
        id=channel_id,
        channel_id=channel_id,
        content="",
        embeds=[],
        components=[],
        flags=0,
        visible_to=None,
    )


class Looping(Slot):
    """A slot that clicks "b:<n>" again and again; its preparation checks that no click is
    in flight when the gate is on (the driver's blocking work would delay an answer's stamp)."""

    def __init__(self, driver: Driver, index: int) -> None:
        super().__init__(driver, index, "uno", index + 1, [index + 100])
        self.count = 0
        self.prepared_in_flight = 0

    async def prepare(self) -> None:
        await self.driver.quiet()
        if self.driver.flying:
            self.prepared_in_flight += 1
        self.count += 1
        self.offer(
            Click(
                self.index,
                1,
                self.players[0],
                "open",
                "table",
                self.channel_id,
                message(self.channel_id),
                f"b:{self.index}:{self.count}",
            )
        )

    async def answered(self, click: Click, rec: Any) -> None:
        await self.prepare()


def world(slots: int = 4) -> tuple[Fake, Driver, Bot, Bot]:
    real, floor = Bot("real", REAL_CPU), Bot("null", FLOOR_CPU)
    fake = Fake([real, floor])
    driver = Driver(fake, None, 1)  # type: ignore[arg-type]
    for i in range(slots):
        slot = Looping(driver, i)
        driver.slots.append(slot)
        driver.by_channel[slot.channel_id] = slot
    driver.start()
    return fake, driver, real, floor


async def test_the_continuous_cell_measures_exactly_the_measured_clicks(tmp_path: Path) -> None:
    fake, driver, real, floor = world()
    opts = Options(workdir=tmp_path, clicks=40, warmup=10, warmup_seconds=0.1)
    rate = 200.0
    pair = Pair(fake, real, floor, "real", "null")  # type: ignore[arg-type]

    cell = await run_cell(pair, driver, 8, rate, opts)
    await driver.close()

    warm = warmup_clicks(rate, opts)
    assert warm == 20 and len(cell.warm) == 20 and len(cell.clicks) == 40
    # The real bot: its CPU and calls over the measured clicks alone, not the warm-up's.
    assert cell.bot_cpu == pytest.approx(40 * REAL_CPU)
    assert sum(cell.routes.values()) == 40
    assert cell.wall == pytest.approx(40 / rate, abs=0.01)
    # The warm-up and the measured clicks keep one beat: no gap, no burst between them.
    gaps = [b - a for a, b in zip(real.clicks, real.clicks[1:], strict=False)]
    assert max(gaps) < 3 / rate
    assert real.clicks[-1] - real.clicks[0] == pytest.approx(59 / rate, abs=0.02)
    # The floor: its warm-up (the last 10 warm-up clicks), then the measured ones; only those
    # counted, all while the real bot was paused, at the same offsets.
    to_floor = [a for a in fake.answered if a[0] == "null"]
    assert len(to_floor) == 50 and all(paused for _, _, paused in to_floor)
    replayed = [c for _, c, _ in to_floor]
    assert replayed == [c.custom_id for c in [*cell.warm[-10:], *cell.clicks]]
    assert len(cell.null.items) == 40  # type: ignore[union-attr]
    assert cell.null_cpu == pytest.approx(40 * FLOOR_CPU)
    assert floor.clicks[-1] - floor.clicks[0] == pytest.approx(49 / rate, abs=0.02)
    assert not real.paused  # resumed after the floor
    assert cell.bot_calls_in_floor == 0
    # The driver never prepared a click while another awaited its answer.
    assert sum(s.prepared_in_flight for s in driver.slots) == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("gate", [True, False])
async def test_with_the_gate_no_preparation_runs_while_a_click_is_in_flight(gate: bool) -> None:
    _, driver, _, _ = world(slots=8)
    driver.gate = gate
    await driver.run(400.0, count=80)
    await driver.settle()
    await driver.close()
    during = sum(s.prepared_in_flight for s in driver.slots)  # type: ignore[attr-defined]
    assert (during == 0) if gate else (during > 0)


async def test_the_alternating_cell_is_still_there(tmp_path: Path) -> None:
    fake, driver, real, floor = world()
    opts = Options(workdir=tmp_path, clicks=30, warmup=10, alternate=True)
    pair = Pair(fake, real, floor, "real", "null")  # type: ignore[arg-type]

    cell = await run_cell(pair, driver, 8, 200.0, opts)
    await driver.close()

    assert cell.mode == "alternate" and len(cell.warm) == 10 and len(cell.clicks) == 30
    assert cell.bot_cpu == pytest.approx(30 * REAL_CPU)
    assert len([a for a in fake.answered if a[0] == "null"]) == 40
    assert not any(paused for _, _, paused in fake.answered)


def test_the_floor_replays_its_warm_up_then_the_measured_clicks_on_one_clock() -> None:
    def click(at: float) -> Click:
        return Click(0, 1, 1, "open", "table", 1, sent_at=at)

    warm = [click(10.0 + i * 0.02) for i in range(5)]
    block = [click(10.1 + i * 0.02) for i in range(3)]
    clicks, offsets, first = measured_replay(warm, block, 2)
    assert clicks == [*warm[-2:], *block] and first == 2
    assert offsets == pytest.approx([0.0, 0.02, 0.04, 0.06, 0.08])
    assert measured_replay(warm, block, 0)[2] == 0


async def test_replay_marks_the_first_measured_click() -> None:
    fake, _, _, floor = world(slots=0)
    fake.route_to("null")
    clicks = []
    for i in range(4):
        c = Click(0, 1, 1, "open", "table", 1, message(1), f"c{i}", at=i * 0.01)
        c.shot = SimpleNamespace(
            channel_id=1, content="", embeds=[], components=[], flags=0, visible_to=None
        )  # type: ignore[assignment]
        clicks.append(c)
    seen: list[int] = []
    done = await replay(
        fake,
        clicks,
        mark=(2, lambda: seen.append(len(floor.clicks))),  # type: ignore[arg-type]
    )
    assert seen == [2] and len(done.items) == 4


async def test_a_frozen_driver_does_no_blocking_work_until_thawed() -> None:
    _, driver, _, _ = world(slots=0)
    driver.gate = True
    with driver.frozen():
        waiting = asyncio.create_task(driver.quiet())
        await asyncio.sleep(0.02)
        assert not waiting.done()
    await asyncio.wait_for(waiting, 1)
    driver.gate = False
    with driver.frozen():
        await asyncio.wait_for(driver.quiet(), 1)  # the gate off: nothing waits
