"""The clocks' "new turn": when the renderer's turn number grows (``Renderer.turn_of``)."""

from __future__ import annotations

import engine
from cogs.hosting import GAMES
from cogs.timing import Timing, next_clocks


def test_a_reshuffled_uno_pile_is_not_a_new_turn() -> None:
    """UNO's turn number counts the discard pile, which a reshuffle brings back to one card
    in the middle of a turn (a draw from an empty deck). A number that falls is no new turn:
    a timed-out player's strike mark and run-out deadline stay, so the bot finishes that
    turn rather than the player getting a fresh one (and a second strike for it)."""
    hosted = GAMES["uno"]
    game = engine.new_game("uno", ["1", "2"], 5, {})
    player = hosted.awaited(game)[0]
    now = hosted.renderer.turn_of(game.view(None))
    assert now is not None
    old = {"turn": {player: 100.0}, "struck": [player], "turn_of": now + 40}
    args = (game, hosted, ["1", "2"], [], 60, 200.0, Timing())
    clocks, _ = next_clocks(old, *args, mover=player, timed_out=True, turn_before=now + 40)
    assert clocks["struck"] == [player] and clocks["turn"][player] == 100.0
    # The number grown: a new turn, which starts over.
    clocks, _ = next_clocks(old, *args, mover=player, timed_out=True, turn_before=now - 1)
    assert "struck" not in clocks and clocks["turn"][player] == 260.0
