"""An older picture never stays on top of a click's newer answer.

The presenter draws a game from the copy it was given. After a failed write the click path
drops the cached copy and works on a new one, so a click can be answered (its message redrawn,
type 7) while the presenter's edit of that same message, drawn from the old copy, is still in
flight. When that edit lands after the answer, the message must be drawn again: with two
processes on one database this left a DM showing buttons three moves old, for good.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs import components, show
from cogs.clock import now
from cogs.render.spec import Screen
from cogs.sessions import Session
from db.script import one, run, single
from tests.discord.driver import Table, controls, message_text


@pytest.mark.parametrize("part", ["table", "dm"])
async def test_an_edit_landing_after_a_newer_answer_is_drawn_over(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, part: str
) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    bot = table.bot
    presenter = bot.presenter
    await presenter.idle()
    old = await table.session()
    assert old.game is not None
    mover = next(p for p in old.game.players if old.game.legal_actions(p))
    action = next(a for a in old.game.legal_actions(mover) if a.pick is None)
    seat = old.seat(int(mover))
    assert seat is not None and seat.dm_channel_id and seat.dm_message_id
    if part == "table":
        assert old.row.table_message_id is not None
        target = (old.row.channel_id, old.row.table_message_id)
    else:
        target = (seat.dm_channel_id, seat.dm_message_id)

    def current() -> str:
        if part == "table":
            return message_text(table.table_message())
        message = table.dm_message(mover)
        assert message is not None
        return message_text(message)

    # The presenter's next edit of that message waits until the click below is answered.
    release, waiting = asyncio.Event(), asyncio.Event()
    held: list[Screen] = []
    edit = presenter.edit

    async def slow_edit(channel_id: int, message_id: int, screen: Screen) -> None:
        if (channel_id, message_id) == target and not held:
            held.append(screen)
            waiting.set()
            await release.wait()
        await edit(channel_id, message_id, screen)

    monkeypatch.setattr(presenter, "edit", slow_edit)
    old.shown.table = None
    old.shown.dms.clear()
    presenter.update(old, table=part == "table", dms=part == "dm")
    await asyncio.wait_for(waiting.wait(), 5)

    # A click on a new copy of the game (the cache was dropped), answered by redrawing the
    # message it was made on, as the click path does.
    bot.sessions.forget(old.id)
    new = await table.session()
    assert new is not old
    async with bot.sessions.lock(new.id):
        await bot.sessions.apply(new, int(mover), action.id, now())
    answer = show.table(new) if part == "table" else show.hand(new, int(mover), dm=True)
    assert components.payload(answer) != components.payload(held[0]), "the move changed nothing"
    await presenter.edit(*target, answer)
    if part == "table":
        presenter.answered_table(new)
    else:
        presenter.answered_dm(new, int(mover))
    presenter.update(new)
    answered = current()

    release.set()  # the older picture lands after the answer...
    await asyncio.wait_for(presenter.idle(), 5)
    assert current() == answered  # ...and is drawn over again


async def test_a_copy_dropped_while_drawn_gives_the_drawing_back_and_the_newest_is_drawn(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a shared database, one process at a time draws a game and the others leave it
    to that one. If a failed write drops the copy being drawn, the drawing is still given
    back and, since the game moved meanwhile, drawn again from the game as stored."""
    bot = simcord_env.bot
    if not bot.sessions.shared:
        pytest.skip("one process on SQLite: no drawing to share")
    table, old, release = await drawing_held(simcord_env, monkeypatch)
    presenter = bot.presenter

    # Meanwhile the game moves (as another process would move it: nobody here asks for a
    # drawing) and this process drops its copy.
    moved = await move_on_a_new_copy(table, old)
    bot.sessions.forget(old.id)

    release.set()
    await asyncio.wait_for(presenter.idle(), 5)
    drawing = await bot.store.backend.read(
        lambda: single(one("SELECT draw_by, drawn, rev FROM games WHERE id = ?", old.id))
    )
    assert drawing[0] is None, "the drawing was never given back"
    assert drawing[1] == drawing[2], "the move was never drawn"
    shown = {c.custom_id for c in controls(table.table_message())}
    assert f"g:{old.id}:{moved.version}:*" in shown, shown


async def test_a_dropped_copy_is_not_drawn_over_a_newer_game(simcord_env: Any) -> None:
    """With other processes: a copy a failed write dropped, left pending, is never drawn (an
    older picture, without the drawing lease, over what the game shows now). Before: the
    presenter drew it as given, and the table showed a move undone."""
    bot = simcord_env.bot
    if not bot.sessions.shared:
        pytest.skip("one process on SQLite: a dropped copy is never older than what is shown")
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    presenter = bot.presenter
    await presenter.idle()
    old = await table.session()
    assert old.game is not None
    # The game moves on through a new copy (another process, or this one after a failed
    # write), and is drawn.
    moved = await move_on_a_new_copy(table, old)
    presenter.update(moved)
    await presenter.idle()
    shown = {c.custom_id for c in controls(table.table_message())}
    assert f"g:{old.id}:{moved.version}:*" in shown, shown
    # Then the dropped copy asks to be drawn (its worker's retry, a late job).
    old.shown.table = None
    presenter.update(old, dms=False)
    await presenter.idle()
    shown = {c.custom_id for c in controls(table.table_message())}
    assert f"g:{old.id}:{moved.version}:*" in shown, shown


async def test_a_drawing_whose_lease_ran_out_is_drawn_again_after_it(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With other processes: our edits waited past the drawing's lease (429s, the REST budget),
    another process took the drawing and drew the newer game, and then our older edit landed.
    Before: we gave up the drawing we no longer held and left that older picture last."""
    bot = simcord_env.bot
    if not bot.sessions.shared:
        pytest.skip("one process on SQLite: no drawing to share")
    table, old, release = await drawing_held(simcord_env, monkeypatch)
    presenter = bot.presenter
    # Meanwhile the game moves, our lease runs out, and another process draws it in full.
    moved = await move_on_a_new_copy(table, old)
    await bot.store.backend.write(
        lambda: single(
            run(
                "UPDATE games SET draw_owner = 'another', draw_by = NULL, drawn = rev WHERE id = ?",
                old.id,
            )
        )
    )
    release.set()  # our older edit lands last ...
    await asyncio.wait_for(presenter.idle(), 5)
    shown = {c.custom_id for c in controls(table.table_message())}
    assert f"g:{old.id}:{moved.version}:*" in shown, shown  # ... and is drawn over


async def move_on_a_new_copy(table: Table, old: Session) -> Session:
    """The game moves through a new copy, as another process (or this one after a failed
    write) would move it, with the old copy dropped: the copy that moved."""
    sessions = table.bot.sessions
    assert old.game is not None
    sessions.forget(old.id)
    mover = next(p for p in old.game.players if old.game.legal_actions(p))
    action = next(a for a in old.game.legal_actions(mover) if a.pick is None)
    moved = await table.session()
    async with sessions.lock(moved.id):
        await sessions.apply(moved, int(mover), action.id, now())
    return moved


async def drawing_held(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[Table, Session, asyncio.Event]:
    """An UNO game whose table is being drawn (the drawing taken), its edit held until the
    event returned is set."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    presenter = simcord_env.bot.presenter
    await presenter.idle()
    old = await table.session()
    assert old.game is not None and old.row.table_message_id is not None
    target = (old.row.channel_id, old.row.table_message_id)
    release, waiting = asyncio.Event(), asyncio.Event()
    edit = presenter.edit

    async def slow_edit(channel_id: int, message_id: int, screen: Screen) -> None:
        if (channel_id, message_id) == target and not waiting.is_set():
            waiting.set()
            await release.wait()
        await edit(channel_id, message_id, screen)

    monkeypatch.setattr(presenter, "edit", slow_edit)
    old.shown.table = None
    presenter.update(old, dms=False)
    await asyncio.wait_for(waiting.wait(), 5)
    return table, old, release
