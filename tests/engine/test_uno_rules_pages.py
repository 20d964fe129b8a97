"""UNO: what the /rules text and docs/rules/uno.md tell players, against what the bot does.

Each test failed before its page or text was put right."""

from __future__ import annotations

from pathlib import Path

import engine
from cogs.hosting import GAMES
from cogs.render.uno import UnoRenderer
from cogs.rules import book_for
from engine.rng import Rng
from engine.testing import choose, playout

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "uno.md"


def test_the_target_option_says_what_reaching_it_does_under_lowest_scoring() -> None:
    """The option's help (shown by /rules and as /newgame's option description) says "Points
    needed to win the game.", but with scoring:lowest (uno.md: "When someone reaches the
    target, the game ends and the lowest total wins") reaching the target loses."""
    help_text = engine.GAMES["uno"].options["target"].help
    game = engine.new_game("uno", ["a", "b", "c"], 11, {"scoring": "lowest", "target": 60})
    playout(game, seed=3)
    scores = game.view()["scores"]
    reached = [p for p, s in scores.items() if s >= 60]
    assert reached and game.winners
    assert not set(reached) & set(game.winners)  # whoever reached the target lost
    options_page = next(s.body for s in book_for(GAMES["uno"]).sections if s.title == "Options")
    # The help may not promise a win for reaching the target when it can mean losing.
    assert "Points needed to win the game." not in options_page, help_text


def test_the_page_names_the_accept_button_as_the_table_shows_it() -> None:
    """Before, uno.md named a table button **Accept**, which the table never shows: it reads
    the engine's "Draw 4 and lose your turn"."""
    page = PAGE.read_text(encoding="utf-8")
    game = engine.new_game("uno", ["a", "b"], 0)
    rng = Rng(1)
    label = None
    for _ in range(5000):
        if game.finished:
            game = engine.new_game("uno", ["a", "b"], rng.below(1000))
        actor = next(p for p in game.actors() if game.legal_actions(p))
        accept = next((a for a in game.legal_actions(actor) if a.id == "accept"), None)
        if accept is not None and game.view()["pending_draw"] == 4:
            label = UnoRenderer("uno", "UNO").table_action_label(
                "accept", accept.label, game.view(None), {}
            )
            break
        game.apply(actor, choose(game, actor, rng))
    assert label is not None
    assert f"**{label}**" in page and "**Accept**" not in page, label


def test_the_quoted_refusal_is_what_the_bot_says() -> None:
    """Before, uno.md quoted the reply to a button that isn't yours as "It's bob's turn, not
    yours."; the bot says "It's not your turn: the game is waiting for bob."."""
    page = PAGE.read_text(encoding="utf-8")
    game = engine.new_game("uno", ["ann", "bob"], 0)
    current = game.view()["current"]
    other = "ann" if current == "bob" else "bob"
    said = UnoRenderer("uno", "UNO").explain(
        game.view(None), other, "draw", {"ann": "ann", "bob": "bob"}
    )
    assert said is not None and said.replace(current, "bob") in page, said
