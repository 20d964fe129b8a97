"""A 10-player UNO round summary must fit in one Discord message (2,000 characters).

``Presenter.post`` sends ``text[:2000]``: a longer summary would lose its end, which is the
running scores and "Round N starts now." The hands that scored give way instead: their
longest lists become card counts, and only as a last resort are hands left out.
"""

from __future__ import annotations

from typing import Any

import engine
from cogs.hosting import GAMES
from cogs.render.spec import MAX_CONTENT
from cogs.render.text import safe_name
from cogs.render.uno import fit_lines
from engine.rng import Rng
from engine.testing import choose

PLAYERS = [f"10000000000000000{i:02d}" for i in range(10)]
# Display names of Discord's maximum length (32 characters), plain letters.
NAMES = {p: safe_name(chr(65 + i) * 32) for i, p in enumerate(PLAYERS)}
# The longest a name can be once made inert: every character a Markdown one, escaped.
ESCAPED = {p: safe_name("_" * 32) + str(i) for i, p in enumerate(PLAYERS)}
UNO = GAMES["uno"].renderer


def _first_round_over(seed: int) -> engine.Game:
    """A 10-player game played with random legal moves (drawing is always allowed) until
    its first round ends; a high target keeps the game going."""
    game = engine.new_game("uno", PLAYERS, seed=seed, options={"target": 10_000})
    rng = Rng(seed)
    while game.view(None)["round"] == 1:
        able = [p for p in game.actors() if game.legal_actions(p)]
        player = rng.choice(able)
        game.apply(player, choose(game, player, rng))
    assert not game.finished
    return game


def test_ten_player_round_summary_fits_one_message() -> None:
    game = _first_round_over(7)
    view = game.view(None)
    held = sum(len(h) for h in view["last_round"]["hands"].values())
    text = UNO.round_summary(view, NAMES)
    assert text is not None
    posted = text[:2000]  # what Presenter.post sends (cogs/presenter.py, ``text[:2000]``)
    assert "Scores:" in posted and "starts now" in posted, (
        f"a summary of {len(text)} characters ({held} cards left in hands) is cut at 2000: "
        f"the post ends with {posted[-80:]!r}"
    )
    assert posted.endswith("Round 2 starts now.")
    # Every hand is still there, at least as its card count and points.
    for p in PLAYERS:
        if p != view["last_round"]["winner"]:
            assert f"• {NAMES[p]}: " in text


def _view(hand_size: int, finished: bool = False) -> dict[str, Any]:
    """A round-1 result where every loser holds ``hand_size`` cards (the longest names)."""
    cards = ["RD2", "YD2", "GD2", "BD2", "W4", "WS"] * 20
    hands = {p: ([] if i == 0 else cards[:hand_size]) for i, p in enumerate(PLAYERS)}
    return {
        "players": PLAYERS,
        "last_round": {
            "round": 1,
            "winner": PLAYERS[0],
            "points": {p: 20 * len(h) for p, h in hands.items()},
            "hands": hands,
            "deadlock": False,
        },
        "scores": {p: 999_999 if i == 0 else 0 for i, p in enumerate(PLAYERS)},
        "target": 1_000_000,
        "scoring": "standard",
        "round": 2,
        "finished": finished,
    }


def test_the_worst_summary_keeps_scores_and_next_round() -> None:
    for size in (1, 5, 10, 30, 100):
        text = UNO.round_summary(_view(size), ESCAPED)
        assert text is not None and len(text) <= MAX_CONTENT, (size, len(text))
        assert "\nScores: " in text and text.endswith("Round 2 starts now."), size
        lines = text.splitlines()
        assert lines[0].startswith("🏁 **Round 1**")
        hand_lines = [line for line in lines if line.startswith("• ")]
        assert len(hand_lines) == 9  # every loser keeps a line (none left out here)


def test_a_summary_that_fits_keeps_every_card() -> None:
    text = UNO.round_summary(_view(2), NAMES)
    assert text is not None
    assert text.count("🟥 Red Draw Two, 🟨 Yellow Draw Two — 40 points") == 9


def test_only_the_longest_hands_are_shortened() -> None:
    view = _view(3)
    hands = view["last_round"]["hands"]
    hands[PLAYERS[1]] = ["RD2", "YD2", "GD2", "BD2", "W4", "WS"] * 15  # 90 cards
    text = UNO.round_summary(view, NAMES)
    assert text is not None and len(text) <= MAX_CONTENT
    assert f"• {NAMES[PLAYERS[1]]}: 90 cards — 60 points" in text
    assert text.count("Red Draw Two, 🟨 Yellow Draw Two, 🟩 Green Draw Two — 60 points") == 8


def test_the_last_round_of_a_game_fits_too() -> None:
    text = UNO.round_summary(_view(100, finished=True), ESCAPED)
    assert text is not None and len(text) <= MAX_CONTENT and "Scores" not in text


def test_fit_lines_leaves_hands_out_only_as_a_last_resort() -> None:
    full = [f"• p{i}: " + "x" * 100 for i in range(5)]
    short = [f"• p{i}: 9 cards" for i in range(5)]
    assert fit_lines(full, short, 10_000) == full
    assert fit_lines(full, short, sum(len(s) + 1 for s in short)) == short
    kept = fit_lines(full, short, 40)
    assert kept == [short[0], "• … and 4 more hands"]
    assert fit_lines(full, short, 5) == []
