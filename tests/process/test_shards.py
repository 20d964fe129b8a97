"""Two bot processes, one PostgreSQL (issue 15): shards 0 and 1 of one bot, each a real
bot.py, against the fake Discord, which routes a server's events to the shard that owns it
and every DM to shard 0, as Discord does.

The server is on shard 1, so a click in the game's channel is applied by one process and a
click in a DM by the other: both must agree on every game. Checked here: simultaneous secret
choices made through both processes at the same moment are both taken; clicks alternate
between the channel and DMs; the same move sent through both at once is applied once; bot
turns and reminders fire exactly once while both processes run; after one process is
killed (SIGKILL) the other keeps serving the game; every answered move is stored once and
every game's state is the replay of its move log.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest
import pytest_asyncio

import engine
from tests.conftest import new_schema
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from tests.process.harness import (
    MESSAGE,
    STALE,
    STEP,
    UPDATE,
    BotProcess,
    Final,
    Snapshot,
    Table,
    check_replay,
    start_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

T = TypeVar("T")
USERS = ("alice", "bob", "carol", "dave", "erin")
SHARDS = {
    "SHARD_COUNT": "2",
    "CLOCK_POLL_SECONDS": "0.3",  # a dead process's clocks are taken over this fast
    "BOT_PAUSE_SECONDS": "0.2",
    "UNO_GRACE_SECONDS": "0.3",
    "NUDGE_AFTER_SECONDS": "1.5",
}


class Reader:
    """Reads the shared database for the test, synchronously, on a thread of its own."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.conn: asyncpg.Connection = self._call(asyncpg.connect(url))

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def snapshot(self, game_id: int) -> Snapshot:
        async def read() -> Snapshot:
            async with self.conn.transaction(isolation="repeatable_read", readonly=True):
                row = await self.conn.fetchrow(
                    "SELECT status, version, kind, seed, options, state FROM games WHERE id = $1",
                    game_id,
                )
                seats = await self.conn.fetch(
                    "SELECT user_id FROM seats WHERE game_id = $1 ORDER BY seat", game_id
                )
                moves = await self.conn.fetch(
                    "SELECT seq, user_id, action FROM moves WHERE game_id = $1 ORDER BY seq",
                    game_id,
                )
            assert row is not None
            return Snapshot(
                row["status"],
                row["version"],
                row["kind"],
                row["seed"],
                json.loads(row["options"]),
                [str(r["user_id"]) for r in seats],
                json.loads(row["state"]) if row["state"] else None,
                [(r["seq"], r["user_id"], r["action"]) for r in moves],
            )

        return self._call(read())

    def dm_messages(self, game_id: int) -> set[int]:
        """The DM hand messages the database knows for this game."""
        rows = self._call(
            self.conn.fetch(
                "SELECT dm_message_id FROM seats WHERE game_id = $1 AND dm_message_id IS NOT NULL",
                game_id,
            )
        )
        return {int(r[0]) for r in rows}

    def drawing(self, game_id: int) -> dict[str, Any]:
        """Who draws the game and how far, and its clocks (for failure messages)."""
        row = self._call(
            self.conn.fetchrow(
                "SELECT version, rev, drawn, draw_by, draw_owner, updated_at, clocks, wake_at,"
                " extract(epoch from clock_timestamp()) AS now FROM games WHERE id = $1",
                game_id,
            )
        )
        return dict(row) if row is not None else {}

    def close(self) -> None:
        self._call(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Shard(BotProcess):
    """bot.py running one shard of two, on the shared PostgreSQL database."""

    def __init__(self, fake: FakeDiscord, workdir: Path, url: str, shard: int) -> None:
        super().__init__(
            fake, workdir, env={"DATABASE_URL": url, "SHARD_IDS": str(shard), **SHARDS}
        )
        self.shard = shard

    async def ready(self) -> None:
        await self.fake.wait_for(lambda: self.shard in self.fake.shards_connected, timeout=20)
        if self.shard == 0:  # the process with shard 0 syncs the commands
            await self.fake.wait_commands("newgame", timeout=20)


READER: Reader | None = None
TAKEOVER = 20.0  # seconds the survivor may take to redraw a dead process's unfinished work


class Cluster:
    def __init__(self, fake: FakeDiscord, reader: Reader, shards: list[Shard]) -> None:
        self.fake = fake
        self.reader = reader
        self.shards = shards


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(
    postgres: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Cluster]:
    global READER
    url = await new_schema(postgres)
    reader = READER = Reader(url)
    async with FakeDiscord(users=USERS, shard_count=2, guild_shard=1) as fake:
        shards = [Shard(fake, tmp_path_factory.mktemp(f"shard{i}"), url, i) for i in (0, 1)]
        try:
            for shard in shards:
                await shard.start()
            yield Cluster(fake, reader, shards)
        finally:
            for shard in shards:
                await shard.kill()
                print(f"--- shard {shard.shard} output ---\n{shard.output()[-8000:]}")
            reader.close()


# -- clicking through either process -----------------------------------------------------------
def versions(message: FakeMessage, game_id: int) -> set[int]:
    found = (re.match(rf"g:{game_id}:(\d+):", cid) for cid in message.custom_ids())
    return {int(m[1]) for m in found if m}


async def dm_hand(table: Table, user: str, version: int, wait: float = STEP) -> FakeMessage:
    """The member's DM hand once it shows ``version`` (any process may have drawn it) and
    its id is stored (a person never clicks within the milliseconds before that)."""
    assert READER is not None

    def ready() -> FakeMessage | None:
        mine = [
            m for m in table.fake.dms_to(user) if versions(m, table.game_id) and not m.ephemeral
        ]
        if not mine or not (version in versions(mine[-1], table.game_id) or opens(mine[-1])):
            return None
        return mine[-1] if mine[-1].id in READER.dm_messages(table.game_id) else None

    def opens(message: FakeMessage) -> str | None:
        """Drawn between the member's turns, the DM offers Play (opening the moves)."""
        return next((c for c in message.custom_ids() if c.endswith(":*")), None)

    try:
        found = await poll(ready, wait)
        play = opens(found)
        if play is None or version in versions(found, table.game_id):
            return found
        # Sharing the database, the DM's Play opens the moves privately (a new message).
        return await table.answered(await table.fake.click(user, found.id, play), MESSAGE)
    except TimeoutError:
        shown = [(m.id, sorted(versions(m, table.game_id))) for m in table.fake.dms_to(user)]
        raise AssertionError(
            f"{user}'s DM never showed version {version}: DMs {shown}, stored"
            f" {READER.dm_messages(table.game_id)}, drawing {READER.drawing(table.game_id)}"
        ) from None


async def poll(ready: Callable[[], T | None], timeout: float) -> T:
    """Waits for ``ready()`` (which may read the database: the fake hears nothing of that)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (found := ready()) is None:
        if loop.time() > deadline:
            raise TimeoutError(f"not ready within {timeout} s")
        await asyncio.sleep(0.02)
    return found


async def control(
    table: Table, user: str, action: str, version: int, route: str, wait: float = STEP
) -> Final:
    """Clicks up to the control that applies ``action``: in the channel (the table's picker,
    shard 1) or in the member's DM (shard 0)."""
    if route == "dm":
        return await table.navigate(user, await dm_hand(table, user, version, wait), action)
    message = await table.current_table(version)
    return await table.navigate(user, await table.open_picker(user, message, version), action)


async def send(
    table: Table, user: str, action: str, version: int, route: str, final: Final | None = None
) -> FakeInteraction:
    """Fires the control applying ``action`` (``final``, if already found). Two processes
    drawing one message may briefly show an older version after a newer one (each then draws
    the newest again): a control that vanished that way is looked for again."""
    for _ in range(20):
        final = final or await control(table, user, action, version, route)
        try:
            return await table.fire(user, final)
        except ValueError:  # the message no longer shows it
            final = None
            await asyncio.sleep(0.05)
            # The other side's move may have been stored meanwhile and redrawn this message
            # with the newer version, where this action still counts: look for it there.
            version = table.snap().version
    raise AssertionError(f"{action} never stayed on {user}'s {route} long enough to click")


async def answered(ix: FakeInteraction) -> FakeMessage:
    record = await ix.response(timeout=STEP)
    assert record.type == UPDATE and record.message is not None, record
    return record.message


# -- the tests ------------------------------------------------------------------------------------
async def test_secret_choices_through_both_processes_at_the_same_moment_are_both_taken(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    channel = fake.add_text_channel("war").id
    players = ("alice", "bob")
    table = await start_game(
        fake, cluster.shards[1], "warofsuits", channel, players, 7, reader=cluster.reader.snapshot
    )
    names = table.names
    rng = random.Random(11)
    expected: list[tuple[int, str]] = []  # (user, action) as answered
    together = 0
    for step in range(60):
        snap = table.snap()
        if snap.status != "active":
            break
        game = snap.game()
        actors = [p for p in sorted(game.actors()) if game.legal_actions(p)]
        picks = [(p, rng.choice([a.id for a in game.legal_actions(p)])) for p in actors]
        # One through the channel (shard 1), the other through a DM (shard 0).
        routes = ["channel", "dm"] if step % 2 else ["dm", "channel"]
        finals = [
            await control(table, names[p], a, snap.version, route)
            for (p, a), route in zip(picks, routes, strict=False)
        ]
        clicks = await asyncio.gather(
            *(
                send(table, names[p], a, snap.version, route, f)
                for (p, a), route, f in zip(picks, routes, finals, strict=False)
            )
        )
        for ix in clicks:
            shown = await answered(ix)
            assert STALE not in shown.text, f"a simultaneous choice was refused: {shown.text}"
        after = table.snap()
        made = {(int(p), a) for p, a in picks}
        assert after.version == snap.version + len(picks)
        assert {(u, a) for _, u, a in after.moves[snap.version :]} == made
        expected += [(u, a) for _, u, a in after.moves[snap.version :]]
        together += len(picks) == 2
    snap = table.snap()
    assert together >= 3, "the deal gave too few simultaneous phases to test"
    assert [(u, a) for _, u, a in snap.moves] == expected
    check_replay(snap)


async def test_a_game_served_by_both_processes_then_by_the_survivor(cluster: Cluster) -> None:
    fake = cluster.fake
    channel = fake.add_text_channel("uno").id
    players = ("carol", "dave", "erin")
    table = await start_game(
        fake,
        cluster.shards[1],
        "uno",
        channel,
        players,
        5,
        # The deal is the bot process's own (not pinned): with the highest target no deal
        # ends the game within the turns played here (200 ended it in one round now and then).
        {"target": 10_000, "bots": 1},
        reader=cluster.reader.snapshot,
    )
    humans = {str(fake.user_id(n)) for n in players}
    bot_seat = next(p for p in table.snap().players if p not in humans)
    nudges: dict[int, int] = {}  # message id -> the game's version when it was posted

    def on_message(message: FakeMessage) -> None:
        if message.channel_id == channel and "your turn in" in message.content:
            nudges.setdefault(message.id, table.snap().version)

    fake.observers.append(on_message)
    rng = random.Random(3)
    answered_moves: list[tuple[int, str]] = []
    killed = False
    for turn in range(26):
        snap = await human_turn(table, humans)
        game = snap.game()
        player, action = uno_choice(rng, game, humans)
        user = table.names[player]
        if turn in (2, 7):
            # Nobody moves for a while: exactly one reminder, from one of the processes.
            before = len(nudges)
            await fake.wait_for(lambda b=before: len(nudges) > b, timeout=10)
            await asyncio.sleep(2.0)  # both processes look for due clocks 6 times meanwhile
            assert len(nudges) == before + 1, "a reminder was posted twice"
        if turn == 13:
            cluster.shards[1].kill_now()  # the shard that owns the game's server
            await cluster.shards[1].kill()
            killed = True
            # Whatever the dead process had not finished showing, the survivor redraws once
            # its drawing lease and grace are over (ten clock polls: 3 s here).
            await dm_hand(table, user, snap.version, wait=TAKEOVER)
        if not killed and turn % 5 == 4:
            # The same move through both processes at the same moment: applied once.
            finals = [
                await control(table, user, action, snap.version, route)
                for route in ("channel", "dm")
            ]
            clicks = await asyncio.gather(
                *(
                    send(table, user, action, snap.version, route, f)
                    for route, f in zip(("channel", "dm"), finals, strict=True)
                )
            )
            texts = [await reply_text(ix) for ix in clicks]
            assert table.snap().version == snap.version + 1
            assert sum(STALE in t or "not your turn" in t.lower() for t in texts) >= 1, (
                "\n---\n".join(texts)
            )
        else:
            route = "dm" if killed or turn % 2 else "channel"
            await answered(await send(table, user, action, snap.version, route))
        answered_moves.append((int(player), action))
        after = table.snap()
        assert after.version == snap.version + 1
        assert after.moves[-1][1:] == (int(player), action), "answered but not stored"
    # The survivor keeps the table in the channel up to date, through REST.
    final = await human_turn(table, humans)
    await table.current_table(final.version)
    human_moves = [(u, a) for _, u, a in final.moves if str(u) in humans]
    assert human_moves == answered_moves, "a human move was lost or stored twice"
    assert {str(u) for _, u, _ in final.moves} <= humans | {bot_seat}
    assert any(str(u) == bot_seat for _, u, _ in final.moves[-8:]), (bot_seat, final.moves[-12:])
    check_replay(final)
    per_turn = [(v, m) for m, v in nudges.items()]
    assert len({v for v, _ in per_turn}) == len(per_turn), "two reminders for one turn"


async def reply_text(ix: FakeInteraction) -> str:
    """What the answer itself said. Not its message's text now: a DM answered "out of date"
    may already have been redrawn by the presenter of the process that applied the move."""
    data = (await ix.response(timeout=STEP)).data
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    text = "\n".join(p for p in parts if p)
    return text or json.dumps(data)


async def human_turn(table: Table, humans: set[str], timeout: float = 75.0) -> Snapshot:
    """Waits while the bot seat plays (its clock may sit out a dead process's lease)."""

    def ready() -> Snapshot | None:
        snap = table.snap()
        assert snap.status == "active", f"the game ended at v{snap.version}: {snap.moves}"
        game = snap.game()
        current = game.view(None).get("current")
        return snap if current in humans and game.legal_actions(current) else None

    try:
        return await poll(ready, timeout)
    except TimeoutError:
        assert READER is not None
        snap = table.snap()
        game = snap.game()
        legal = {p: [a.id for a in game.legal_actions(p)] for p in game.players}
        raise AssertionError(
            f"no member's turn came: {snap.status} v{snap.version}, current"
            f" {game.view(None).get('current')}, legal {legal}, moves {snap.moves},"
            f" clocks and drawing {READER.drawing(table.game_id)}"
        ) from None


def uno_choice(rng: random.Random, game: engine.Game, humans: set[str]) -> tuple[str, str]:
    """The member whose turn it is plays (or draws): a seeded choice, never a catch. With two
    cards they play and call UNO at once, so the bot seat never catches them: its catch would
    be a move made while the test waits for a member's (the game must only move by clicks
    the test makes, and by the bot's own turns)."""
    player = game.view(None)["current"]
    legal = [a.id for a in game.legal_actions(player)]
    calls = [a for a in legal if a.startswith("play+uno:")]
    plays = calls or [a for a in legal if a.startswith(("play", "color", "challenge", "accept"))]
    calm = [a for a in legal if not a.startswith(("catch", "uno"))]
    return player, rng.choice(plays or calm or legal)
