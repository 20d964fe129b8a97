"""Two processes on one PostgreSQL: a move stored by one process must be shown by someone.

The drawing lease lets one process at a time draw a game; a process that finds the lease
taken leaves the drawing to its holder, which draws again if the game moved meanwhile
(``Presenter._end``), and a change nobody finished showing is redrawn by ``claim_undrawn``.

Before, a pass that drew neither the table nor the DMs (a turn reminder:
``update(table=False, dms=False, jobs=[remind])``, whose post fails so that no rev bump of its
own hides the problem; likewise a table-only ``_again(dms=False)`` or DM-only pass) still took
the lease, refreshed the game (bringing in the other process's move) and then gave the lease
back marking that revision as *shown in full* (``end_drawing(..., drew)``). So the other
process's move was drawn by nobody, and the orphan redraw never claimed it either: the table
and DMs stayed on the previous turn. Now a pass that holds the lease draws every part.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from cogs.presenter import Presenter
from cogs.sessions import Session, Sessions


def presenter_for(sessions: Sessions, drawn: list[tuple[str, int]]) -> Presenter:
    """The real Presenter on a minimal bot: drawing the table or the DMs is only recorded
    (no Discord here), with the version it would show."""
    bot: Any = SimpleNamespace(
        sessions=sessions,
        store=sessions.store,
        settings=SimpleNamespace(clock_poll=2.0, dm_hands=True),
    )
    presenter = Presenter(bot)

    async def table(session: Session) -> bool:
        drawn.append(("table", session.version))
        return True

    async def dms(session: Session) -> bool:
        drawn.append(("dms", session.version))
        return True

    presenter.refresh_table = table  # type: ignore[method-assign]
    presenter.update_dms = dms  # type: ignore[method-assign]
    return presenter


async def test_a_move_made_while_another_process_posts_a_reminder_is_drawn(two) -> None:
    one, other, game_id = two
    drawn_a: list[tuple[str, int]] = []
    drawn_b: list[tuple[str, int]] = []
    pa, pb = presenter_for(one, drawn_a), presenter_for(other, drawn_b)

    # Process A has the game drawn in full at its current revision (as after its last move).
    mine = await one.get(game_id)
    assert mine is not None and mine.game is not None
    pa.update(mine)
    await pa.idle()
    assert drawn_a[-2:] == [("table", 0), ("dms", 0)]
    assert await one.store.claim_undrawn("X", time.time() + 3600, 20, 20) == []

    # Process A's clock posts a turn reminder: a pass that draws neither table nor DMs.
    # Right after it takes the drawing, process B stores a move (a DM click on shard 0) and
    # asks for the table and DMs; A holds the drawing, so B leaves it to A.
    take = one.store.take_drawing
    moved: list[int] = []

    async def take_then_other_moves(game: int, owner: str, lease: float) -> bool | None:
        took = await take(game, owner, lease)
        if not moved:
            theirs = await other.get(game_id)
            assert theirs is not None and theirs.game is not None
            player = theirs.game.actors()[0]
            action = theirs.game.legal_actions(player)[0].id
            applied = await other.apply(theirs, int(player), action, time.time())
            moved.append(applied.version)
            pb.update(theirs)
            await pb.idle()
        return took

    one.store.take_drawing = take_then_other_moves  # type: ignore[method-assign]
    reminded: list[int] = []

    async def remind(session: Session) -> None:
        # Timers.post_nudge, whose post Discord refuses this time (a 5xx, a missing Send
        # Messages permission). Had it succeeded, set_nudge_message's rev bump would have
        # made A draw again and masked what follows.
        reminded.append(session.version)
        raise RuntimeError("Discord refused the reminder")

    pa.update(mine, table=False, dms=False, jobs=[remind])
    await pa.idle()
    one.store.take_drawing = take  # type: ignore[method-assign]
    assert moved == [1] and reminded

    # B drew nothing: A held the drawing, so B left it to A.
    assert drawn_b == []
    # Someone must show B's move: A draws it, or it stays claimable for the orphan redraw.
    a_drew_it = ("table", 1) in drawn_a and ("dms", 1) in drawn_a
    claimable = await other.store.claim_undrawn("B", time.time() + 3600, 20, 20)
    assert a_drew_it or claimable == [game_id], (
        f"move 1 (stored by process B) is shown by nobody: A drew {drawn_a}, B drew "
        f"{drawn_b}, and the orphan redraw finds nothing to redraw ({claimable})"
    )


async def test_a_move_whose_process_died_is_redrawn_even_after_a_reminder_elsewhere(two) -> None:
    """Process B stores a move and dies before drawing it (kill -9). The orphan redraw
    should show it within the lease; but a reminder posted by process A first (a pass that
    draws nothing) marks B's revision as shown in full, so it is never redrawn."""
    one, other, game_id = two
    drawn_a: list[tuple[str, int]] = []
    pa = presenter_for(one, drawn_a)
    mine = await one.get(game_id)
    assert mine is not None
    pa.update(mine)
    await pa.idle()

    theirs = await other.get(game_id)
    assert theirs is not None and theirs.game is not None
    player = theirs.game.actors()[0]
    await other.apply(theirs, int(player), theirs.game.legal_actions(player)[0].id, time.time())
    # B dies here: its presenter never runs.

    async def remind(session: Session) -> None:
        raise RuntimeError("Discord refused the reminder")  # see the test above

    pa.update(mine, table=False, dms=False, jobs=[remind])
    await pa.idle()
    shown = ("table", 1) in drawn_a and ("dms", 1) in drawn_a
    claimable = await one.store.claim_undrawn("C", time.time() + 3600, 20, 20)
    assert shown or claimable == [game_id], (
        f"B's move is never shown: A drew {drawn_a}; orphan redraw finds {claimable}"
    )
