"""kill -9 in the gap between a Discord post and the database write that records it.

The real bot.py on the wire-level fake Discord (SQLite). An observer on the fake SIGKILLs the
bot the instant a given message is created, before the bot has read Discord's answer: the
post is on Discord, the database does not know it. After the restart a player must still see
one of each thing (one end post, one table, one hand DM). Before, the restarted bot posted
each a second time; now every such post carries a nonce made of what identifies it, and
Discord hands back the message a nonce already made (``enforce_nonce``, which the fake keeps
for two minutes) instead of a second one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord, FakeMessage
from tests.process.harness import (
    PLAYERS,
    STEP,
    UPDATE,
    BotProcess,
    announcements,
    start_uno,
)

LIMIT = 60.0


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path, env={"NUDGE_AFTER_SECONDS": "600"})
    try:
        await process.start()
        yield process
    finally:
        await process.kill()
        print(f"--- bot output ({process.log_path}) ---\n{process.output()[-8000:]}")


def kill_when(
    fake: FakeDiscord, bot: BotProcess, match: Callable[[FakeMessage], bool]
) -> list[int]:
    """SIGKILL the bot synchronously when a message matching ``match`` is first created
    (before the fake answers the bot's request). Returns the list the message id lands in."""
    hit: list[int] = []

    def observe(message: FakeMessage) -> None:
        if not hit and message.id not in seen and match(message):
            hit.append(message.id)
            bot.kill_now()

    seen = set(fake.messages)
    fake.observers.append(observe)
    return hit


def live(fake: FakeDiscord, channel_id: int) -> list[FakeMessage]:
    return [m for m in fake.messages_in(channel_id, ephemeral=False) if not m.deleted]


async def test_end_post_is_not_posted_twice_after_a_kill_right_as_it_lands(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    """A crash right as the 🏆 end post reaches Discord (before its "announced" flag is
    stored): after the restart the channel shows the result TWICE ("🏆 alice wins game #1"
    two times, each with its own Play again button). A player should see one end post; the
    restarted bot should find the one already in the channel (e.g. post with a nonce, or
    look at the channel's recent messages before posting again)."""
    async with asyncio.timeout(LIMIT):
        play = await start_uno(fake, bot)
        player, action = await play.play_to_winning_move()
        hit = kill_when(fake, bot, lambda m: "🏆" in m.content)
        user, _version, _, final = await play.prepare(player, action, True, force_picker=True)
        await play.fire(user, final)
        await fake.wait_for(lambda: hit, timeout=STEP)
        await bot.restart()
        assert play.snap().status == "finished"
        await fake.wait_for(lambda: announcements(fake, play.game_id), timeout=STEP)
        await asyncio.sleep(3)  # the restarted bot's catch-up pass is done by then
        posts = announcements(fake, play.game_id)
        assert len(posts) == 1, [p.content for p in posts]


async def open_and_start(fake: FakeDiscord, before_start: Callable[[], object]) -> int:
    """alice opens UNO (no timer), bob and carol join; ``before_start`` runs; alice starts.
    The game's id."""
    ix = await fake.slash("alice", "newgame uno", {"turn_timer": 0, "target": 50})
    lobby = (await ix.response(timeout=STEP)).message
    assert lobby is not None
    game_id = int(lobby.component(prefix="l:")["custom_id"].split(":")[1])
    for name in ("bob", "carol"):
        click = await fake.click(name, lobby.id, f"l:{game_id}:join")
        assert (await click.response(timeout=STEP)).type == UPDATE
    before_start()
    click = await fake.click("alice", lobby.id, f"l:{game_id}:start")
    assert (await click.response(timeout=STEP)).type == UPDATE
    return game_id


def stored_table(bot: BotProcess, game_id: int) -> int | None:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True, timeout=5)
    try:
        (found,) = conn.execute(
            "SELECT table_message_id FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    finally:
        conn.close()
    return int(found) if found is not None else None


def tables(fake: FakeDiscord, game_id: int) -> list[FakeMessage]:
    """Channel messages still offering the game's play buttons."""
    return [
        m
        for m in live(fake, fake.channel_id)
        if any(c.startswith(f"g:{game_id}:") for c in m.custom_ids())
    ]


async def test_kill_as_the_first_table_lands_leaves_one_live_table(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    """A crash right as Start's first table reaches Discord (before its message id is
    stored): the restarted bot posts a second table, and the first stays in the channel
    with live "Play a card"/"Draw" buttons for ever (clicks on it after the first move get
    "out of date" refusals; it never gets the "table moved down" notice). Players should
    see one live table: the restart should find and retire the orphan (or post the table
    with a nonce / record a pending post before sending it)."""
    async with asyncio.timeout(LIMIT):
        box: list[list[int]] = []

        def arm() -> None:  # the lobby message has l: buttons only; the table has g: ones
            box.append(
                kill_when(fake, bot, lambda m: any(c.startswith("g:") for c in m.custom_ids()))
            )

        game_id = await open_and_start(fake, arm)
        await fake.wait_for(lambda: box[0], timeout=STEP)
        await bot.restart()
        # The restarted bot shows the running game again: its table stored, the same one.
        await fake.wait_for(lambda: stored_table(bot, game_id), timeout=STEP)
        await asyncio.sleep(1)
        live_tables = tables(fake, game_id)
        assert [m.id for m in live_tables] == box[0], (
            f"{len(live_tables)} tables with live buttons in the channel"
        )
        assert stored_table(bot, game_id) == box[0][0]
        assert fake.nonce_hits >= 1  # Discord handed the first table back


async def test_kill_as_a_hand_dm_lands_leaves_one_hand_dm(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    """A crash right as a player's first hand DM reaches Discord (before its id is stored):
    the restarted bot sends that player a second hand DM, and the first stays in their DMs
    showing the opening hand for ever (after a move it shows cards they no longer hold).
    The player should have one DM hand, kept up to date."""
    async with asyncio.timeout(LIMIT):
        box: list[list[int]] = []
        bob_dm = fake.dm_channel("bob").id

        def arm() -> None:
            box.append(kill_when(fake, bot, lambda m: m.channel_id == bob_dm))

        await open_and_start(fake, arm)
        await fake.wait_for(lambda: box[0], timeout=STEP)
        await bot.restart()
        await fake.wait_for(lambda: all(fake.dms_to(n) for n in PLAYERS) or None, timeout=STEP)
        await asyncio.sleep(1)
        assert len(fake.dms_to("bob")) == 1, [m.id for m in fake.dms_to("bob")]
