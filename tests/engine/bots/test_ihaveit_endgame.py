"""I Have It bots when two players are left and the pile is empty.

Then every card is known to both: the third player is out with no card, the pile is empty,
and every card not in one's own hand or already played is in the other's hand. In the
positions below one answer wins at once (the other player cannot answer it and must decline,
handing over their last card). Before, Normal played its usual "lowest card that answers",
which lost the game for sure or left it to a coin flip (Hard found the win). Normal also
plays a member's timed-out turn.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.bots import choose
from engine.cards import standard_deck
from engine.games.ihaveit import IHaveIt

A, B, C = "ann", "bob", "cyd"


def endgame(hands: dict[str, list[str]], in_play: dict[str, object], current: str) -> IHaveIt:
    """Cyd is out; the pile is empty; every other card has been played."""
    data = engine.new_game("ihaveit", [A, B, C], seed=3).to_dict()
    held = {c for h in hands.values() for c in h} | set(in_play["cards"])  # type: ignore[arg-type]
    played = [c for c in standard_deck() if c not in held]
    data["state"].update(
        hands={A: hands.get(A, []), B: hands.get(B, []), C: []},
        pile=[],
        discard=played,
        in_play=in_play,
        current=current,
        phase="answer",
        limit=None,
        taken_by=None,
        out=[C],
        moves=40,
        known={A: {}, B: {}, C: {}},
    )
    game = engine.load(json.loads(json.dumps(data)))
    assert isinstance(game, IHaveIt)
    return game


def winners_after(game: IHaveIt, player: str, action: str, seed: int) -> list[str]:
    """``player`` plays ``action``; then both play on with Normal (random takes by ``seed``)."""
    data = game.to_dict()
    data["rng"] = 1000 + seed
    trial = engine.load(data)
    trial.apply(player, action)
    rng = random.Random(seed)
    while not trial.finished:
        p = trial.actors()[0]
        trial.apply(p, choose("ihaveit", "normal", trial.view(p), trial.legal_actions(p), rng))
    return trial.winners


# (hands, the play to answer, the seat to move, the answer that wins, Normal's answer)
CASES = [
    # Bob's last card is the K♠ and his Q♦ waits. K♥ cannot be answered by the K♠ (not
    # higher, not a spade, no pair): Bob must decline and hand Ann his last card, he is out
    # and Ann wins. After the 9♦ Bob answers with the K♠, Ann cannot answer it and must
    # decline, and whichever card Bob takes answers Ann's last lead: Ann loses.
    (
        {A: ["9D", "QH", "KH"], B: ["KS"]},
        {"player": B, "cards": ["QD"]},
        A,
        "answer:KH",
        "answer:9D",
    ),
    # Ann's last card is the J♥ and her 7♦ waits. The J♦ cannot be answered by the J♥: Ann
    # declines, gives Bob her last card and is out. After the 9♥ Ann answers with the J♥ and
    # Bob, unable to answer it, declines: a coin flip decides who wins.
    (
        {A: ["JH"], B: ["3S", "9H", "JD"]},
        {"player": A, "cards": ["7D"]},
        B,
        "answer:JD",
        "answer:9H",
    ),
]


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize(("hands", "in_play", "seat", "good", "bad"), CASES)
def test_answers_with_the_card_the_last_opponent_cannot_answer(
    hands: dict[str, list[str]],
    in_play: dict[str, object],
    seat: str,
    good: str,
    bad: str,
    level: str,
) -> None:
    game = endgame(hands, in_play, seat)
    # The winning answer wins whatever happens; the other one does not.
    assert all(winners_after(game, seat, good, s) == [seat] for s in range(8))
    assert any(winners_after(game, seat, bad, s) != [seat] for s in range(8))
    view = game.view(seat)
    for s in range(4):
        picked = choose("ihaveit", level, view, game.legal_actions(seat), random.Random(s))
        assert picked == good, (
            f"{level} plays {picked}; {good} wins at once (the last opponent's cards are known: "
            f"the pile is empty and every other card has been played)"
        )
