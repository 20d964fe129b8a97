"""UNO discards (custom rules 5 and 6) from hands too big for one Discord select.

Discord allows 25 options per select, 25 values chosen and 5 rows per message. A hand of
more than 25 cards discards in parts (``engine.games.uno.DISCARD_AT_ONCE``): the picker shows
it as several selects (by colour), each one a submission of its own. States are built with
legal moves only (a player may always draw instead of playing), then drawn with the pure
screens, as the bot shows them in a DM or the ephemeral "My hand".
"""

from __future__ import annotations

import json
import random
from collections import Counter

import engine
from cogs import ids
from cogs.hosting import GAMES
from cogs.render.picker import MAX_PICK_SELECTS, pick_rows
from cogs.render.screens import hand_screen
from cogs.render.spec import MAX_PER_ROW, MAX_ROWS, MAX_SELECT_OPTIONS, Screen, Select
from engine.games.uno import DISCARD_AT_ONCE
from engine.games.uno_cards import build_deck
from engine.testing import stacked

A, B = "111111111111111111", "222222222222222222"
NAMES = {A: "Ann", B: "Bea"}
GAME, VERSION = 42, 7
UNO = GAMES["uno"].renderer


def _wild_custom_with_big_hands(size: int, rule: int = 6, seed: int = 7) -> engine.Game:
    """Two players with Wild Custom #``rule`` (6: "everyone discards down to 3", 5: "the
    next player discards down to 7"), both drawing every turn (allowed even with a playable
    card) until Ann holds ``size`` cards; then Bea plays the Wild Custom card."""
    deck = build_deck(False, [rule])
    deck.remove(f"WC{rule}")
    random.Random(seed).shuffle(deck)
    deck.insert(0, f"WC{rule}")  # the first card dealt goes to seat 1 (Bea)
    game = stacked("uno", [A, B], deck, options={"custom_wilds": 1, "custom_rules": str(rule)})
    while len(game.view(A)["hand"]) < size or game.view(None)["current"] != B:
        current = game.view(None)["current"]
        game.apply(current, "draw")
        if game.view(None)["phase"] == "drawn":
            game.apply(current, "pass")
    game.apply(B, f"play:WC{rule}:R")
    assert game.view(None)["phase"] == "discard"
    return game


def _screen(game: engine.Game, player: str) -> Screen:
    return hand_screen(GAME, VERSION, game, player, UNO, NAMES, [], "w", prefix="discard")


def _selects(screen: Screen) -> list[Select]:
    selects = [row for row in screen.rows if isinstance(row, Select)]
    # Discord's own limits: 5 rows, 25 options per select, 25 values chosen.
    assert len(screen.rows) <= MAX_ROWS
    for row in screen.rows:
        if isinstance(row, Select):
            assert len(row.options) <= MAX_SELECT_OPTIONS
            assert 1 <= row.min_values <= row.max_values <= min(25, len(row.options))
            assert len({c.value for c in row.options}) == len(row.options)
        else:
            assert len(row) <= MAX_PER_ROW
    assert len({s.custom_id for s in selects}) == len(selects)
    return selects


def _submission(select: Select, values: list[str]) -> str:
    """The action id play.py's ``on_act`` applies for ``values`` ticked in ``select``."""
    parsed = ids.parse(select.custom_id)
    assert parsed is not None and parsed.prefix == "k"
    return f"{parsed.rest}:{'.'.join(values)}"


def _submissions(game: engine.Game, player: str) -> list[str]:
    """Every action id one press of the player's discard picker can send: for each select
    the bot draws, the most and the fewest cards Discord lets the player tick in it."""
    sent = []
    for row in _selects(_screen(game, player)):
        values = [c.value for c in row.options]
        for k in {row.min_values, row.max_values}:
            sent.append(_submission(row, values[:k]))
    return sent


def _accepted(game: engine.Game, player: str, action_id: str) -> bool:
    trial = engine.load(json.loads(json.dumps(game.to_dict())))
    try:
        trial.apply(player, action_id)
    except engine.IllegalAction:
        return False
    return True


def _hand_tokens(game: engine.Game, player: str) -> list[str]:
    action = next(a for a in game.legal_actions(player) if a.id == "discard")
    assert action.pick is not None
    return action.pick.options


def _offered(game: engine.Game, player: str) -> set[str]:
    return {c.value for row in _selects(_screen(game, player)) for c in row.options}


def test_the_engine_limit_fits_one_select() -> None:
    """A hand the engine asks to discard from in one choice always fits one select."""
    assert DISCARD_AT_ONCE <= MAX_SELECT_OPTIONS


def test_a_player_told_to_discard_more_than_25_cards_can_do_it() -> None:
    """Ann holds 30 cards and must discard 27 (Wild Custom #6). Before, her picker was one
    multi-select of the first 25 cards with at most 25 ticks, so every submission was refused
    ("choose exactly 27") and her seat was stuck (for good with the turn timer off)."""
    game = _wild_custom_with_big_hands(30)
    assert game.view(None)["discarding"][A] == 27
    sent = _submissions(game, A)
    assert sent, "no discard picker at all"
    refused = [s for s in sent if not _accepted(game, A, s)]
    assert not refused, f"submissions the picker allows but the engine refuses: {refused}"


def test_every_card_of_a_big_hand_can_be_chosen_for_a_discard() -> None:
    """Ann holds 27 cards and must discard 24: before, the picker listed only the first 25
    cards of her sorted hand, so her last cards (the wilds sort last) could never go."""
    for size in (26, 27, 30, 40, 50):
        game = _wild_custom_with_big_hands(size)
        hand = _hand_tokens(game, A)
        assert len(hand) == size
        missing = [t for t in hand if t not in _offered(game, A)]
        assert not missing, f"{size} cards: cannot be picked for the discard: {missing}"


def _discard_through_the_picker(game: engine.Game, player: str, choose_last: bool) -> int:
    """Submit selects of the player's picker until nothing is owed; the submissions made.
    Each time: the first select (or the last), as many cards as it lets the player tick."""
    presses = 0
    while player in (game.view(None).get("discarding") or {}):
        assert presses < 20, "the discard never ends"
        hand = _hand_tokens(game, player)
        selects = _selects(_screen(game, player))
        if len(hand) <= MAX_PICK_SELECTS * MAX_SELECT_OPTIONS:
            assert {c.value for s in selects for c in s.options} == set(hand)
        select = selects[-1] if choose_last else selects[0]
        values = [c.value for c in select.options][: select.max_values]
        game.apply(player, _submission(select, values))
        presses += 1
    return presses


def test_thirty_cards_discard_down_to_three_through_the_picker() -> None:
    game = _wild_custom_with_big_hands(33)
    assert game.view(None)["discarding"][A] == 30
    presses = _discard_through_the_picker(game, A, choose_last=False)
    assert presses >= 2 and len(game.view(A)["hand"]) == 3
    assert A not in game.view(None)["discarding"]  # Bea still discards hers


def test_forty_cards_discard_down_to_seven_through_the_picker() -> None:
    game = _wild_custom_with_big_hands(40, rule=5)
    assert game.view(None)["discarding"] == {A: 33}
    # The last select holds the wilds: every card can go, not just the first 25.
    hand_before = _hand_tokens(game, A)
    presses = _discard_through_the_picker(game, A, choose_last=True)
    assert presses >= 2 and len(game.view(A)["hand"]) == 7
    assert game.view(None)["phase"] == "play" and game.view(None)["current"] == A
    # The wilds sort last: they went with the first press, from the last select.
    assert not any(c.startswith("W") for c in game.view(A)["hand"])
    assert any(t.startswith("W") for t in hand_before)


def test_any_three_cards_of_a_big_hand_can_be_the_ones_kept() -> None:
    """Whatever three cards Ann wants to keep, the picker lets her discard all the others."""
    base = _wild_custom_with_big_hands(32)
    hand = _hand_tokens(base, A)
    for keep in (hand[:3], hand[-3:], [hand[0], hand[13], hand[-1]]):
        game = engine.load(json.loads(json.dumps(base.to_dict())))
        kept = Counter(t.split("_")[0] for t in keep)
        while A in game.view(None)["discarding"]:
            surplus = Counter(t.split("_")[0] for t in _hand_tokens(game, A)) - kept
            owed = game.view(None)["discarding"][A]
            for select in _selects(_screen(game, A)):
                values = []
                for choice in select.options:
                    code = choice.value.split("_")[0]
                    if surplus[code] > 0 and len(values) < min(select.max_values, owed):
                        surplus[code] -= 1
                        values.append(choice.value)
                if values and len(values) >= select.min_values:
                    game.apply(A, _submission(select, values))
                    break
            else:
                raise AssertionError("no select lets Ann discard what she wants")
        assert sorted(game.view(A)["hand"]) == sorted(kept.elements())


def test_a_hand_of_25_or_fewer_keeps_one_select_of_exactly_the_count() -> None:
    game = _wild_custom_with_big_hands(25)
    (select,) = _selects(_screen(game, A))
    assert select.min_values == select.max_values == 22 and len(select.options) == 25
    assert ids.parse(select.custom_id) == ids.Parsed("k", GAME, VERSION, "discard")


def test_big_hand_selects_go_by_colour() -> None:
    game = _wild_custom_with_big_hands(40)
    selects = _selects(_screen(game, A))
    assert 2 <= len(selects) <= MAX_PICK_SELECTS
    for select in selects:
        assert "discard some" in select.placeholder
        assert select.min_values == 1
        assert select.max_values == min(37, len(select.options))
    # The wilds (sorted last) are in the last select, named as such.
    assert "Wild" in selects[-1].placeholder


def test_two_players_discarding_big_hands_at_the_same_time() -> None:
    """Custom rule 6 makes both discard at once: their parts may interleave."""
    game = _wild_custom_with_big_hands(30)
    assert game.view(None)["discarding"] == {A: 27, B: 27}
    assert game.view(None)["hand_sizes"] == {A: 30, B: 30}
    turn = 0
    while game.view(None)["discarding"]:
        player = sorted(game.view(None)["discarding"])[turn % len(game.view(None)["discarding"])]
        select = _selects(_screen(game, player))[0]
        # A few cards at a time while the hand is big; then exactly what is owed.
        count = max(select.min_values, min(3, select.max_values))
        game.apply(player, _submission(select, [c.value for c in select.options][:count]))
        turn += 1
    assert turn > 4
    assert game.view(None)["hand_sizes"] == {A: 3, B: 3}
    assert game.view(None)["phase"] == "play"


def test_a_huge_hand_stays_within_discords_limits() -> None:
    """More than 100 cards (four selects of 25): the first 100 are offered; once some are
    gone, the rest are."""
    options = [f"R{i % 10}_{i}" for i in range(110)]
    action = engine.Action("discard", "Discard 107 card(s)", engine.Pick(options, 1, 107))
    rows = pick_rows(GAME, VERSION, action, UNO, NAMES)
    assert len(rows) == MAX_PICK_SELECTS
    for row in rows:
        assert isinstance(row, Select) and len(row.options) == 25 and row.max_values == 25


def test_leave_game_is_offered_when_the_moves_fill_four_rows() -> None:
    """Before, "Leave game" was left off a DM or "My hand" whose moves filled four rows (16 to
    20 choices), though the fifth row was free for it."""
    deck = build_deck(False, [])
    random.Random(3).shuffle(deck)
    game = stacked("uno", [A, B], deck)
    rows_seen = set()
    for _ in range(300):
        current = game.view(None)["current"]
        if current == A:
            screen = hand_screen(GAME, VERSION, game, A, UNO, NAMES, [], "DM", leave=True)
            labels = [b.label for r in screen.rows if not isinstance(r, Select) for b in r]
            assert len(screen.rows) <= MAX_ROWS and "Leave game" in labels, labels
            rows_seen.add(len(screen.rows))
            if len(screen.rows) == MAX_ROWS:
                break
        legal = [a.id for a in game.legal_actions(current)]
        game.apply(current, "draw" if "draw" in legal else legal[0])
        if game.view(None)["phase"] == "drawn":
            game.apply(current, "pass")
    assert MAX_ROWS in rows_seen  # four rows of moves met, with Leave game below them
