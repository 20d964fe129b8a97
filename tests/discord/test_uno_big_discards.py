"""UNO custom rules 5 and 6 on Discord with hands of more than 25 cards.

Discord's selects hold 25 cards and take 25 at most: such a hand discards in parts, one
select (a few colours) at a time, through the DM or the "Play a card" picker, until the count
is met. Before, the picker held the first 25 cards only and asked for exactly the count:
a player owing more than 25 cards could never discard, and the game stalled.
"""

from __future__ import annotations

import random

from cogs.hosting import renderer_for
from engine.games.uno_cards import build_deck
from tests.discord.driver import Table, controls
from tests.discord.test_uno_truths import set_uno


def _hands(sizes: list[int], rule: int, seed: int = 3) -> list[list[str]]:
    deck = build_deck(False, [rule])
    deck.remove(f"WC{rule}")
    random.Random(seed).shuffle(deck)
    hands, taken = [], 0
    for size in sizes:
        hands.append(deck[taken : taken + size])
        taken += size
    return hands


async def _discard_all(table: Table, player: str, via: str, last: bool = False) -> int:
    """``player`` discards what they owe through the UI, one select's worth at a time
    (the first select, or the last); the number of moves it took."""
    moves = 0
    while True:
        game = await table.game()
        owed = game.view()["discarding"].get(player)
        if not owed:
            return moves
        action = next(a for a in game.legal_actions(player) if a.id == "discard")
        assert action.pick is not None
        groups = renderer_for("uno").pick_groups("discard", action.pick.options)
        pool = (groups[-1] if last else groups[0])[1] if groups else action.pick.options
        chosen = pool[: min(owed, len(pool))]
        await table.act(player, f"discard:{'.'.join(chosen)}", via=via)
        moves += 1
        assert moves < 10


async def test_thirty_cards_discard_down_to_three_through_the_dm_and_picker(
    simcord_env,
) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=1, custom_wilds=1, custom_rules="6")
    ann, bea, cy = table.members
    hands = _hands([30, 28, 3], 6)
    await set_uno(table, hands, "WC6", c="R", cur=1, ph="discard", ds=[[0, 27], [1, 25]], rs=1)
    # The picker of a 30-card hand: every card offered, each select within Discord's limits.
    game = await table.game()
    assert game.actors() == [ann, bea]
    dm = table.dm_message(ann)
    assert dm is not None
    opened = await table.members[ann].user.click(
        dm, custom_id=next(c.custom_id for c in controls(dm) if c.custom_id.endswith(":discard"))
    )
    assert opened.acknowledged
    dm = table.dm_message(ann)
    assert dm is not None
    selects = [c for c in controls(dm) if c.kind == "select"]
    assert len(selects) >= 2
    offered = [v for s in selects for v in s.values]
    assert sorted(offered) == sorted(game.legal_actions(ann)[0].pick.options)  # type: ignore[union-attr]
    assert all(len(s.values) <= 25 for s in selects)
    # Both discard, interleaved: ann from her DM, bea from the table's picker.
    moves = await _discard_all(table, ann, "dm")
    moves += await _discard_all(table, bea, "picker", last=True)
    assert moves >= 4
    game = await table.game()
    view = game.view()
    assert view["hand_sizes"] == {ann: 3, bea: 3, cy: 3}
    assert view["phase"] == "play" and view["current"] == bea


async def test_forty_cards_discard_down_to_seven_through_the_picker(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=1, custom_wilds=1, custom_rules="5")
    ann, bea = table.members
    hands = _hands([3, 40], 5)
    assert any(c.startswith("W") for c in hands[1])
    await set_uno(table, hands, "WC5", c="G", cur=1, ph="discard", ds=[[1, 33]], rs=1)
    moves = await _discard_all(table, bea, "picker", last=True)
    assert moves >= 2
    view = (await table.game()).view()
    assert view["hand_sizes"] == {ann: 3, bea: 7}
    assert view["phase"] == "play" and view["current"] == bea
    # The last select (the wilds) went first: cards past the 25th can be discarded.
    assert not any(c.startswith("W") for c in (await table.game()).view(bea)["hand"])


async def test_after_a_part_the_dm_stays_on_the_discard_menus(simcord_env) -> None:
    """A part of a big discard made from the DM: its answer shows the menus of what is still
    owed (before, the DM went back to the top, and the player pressed Discard again)."""
    table = await Table.start(simcord_env, "uno", 2, seed=1, custom_wilds=1, custom_rules="5")
    _ann, bea = table.members
    await set_uno(table, _hands([3, 40], 5), "WC5", c="G", cur=1, ph="discard", ds=[[1, 33]], rs=1)
    game = await table.game()
    action = next(a for a in game.legal_actions(bea) if a.id == "discard")
    assert action.pick is not None
    first = renderer_for("uno").pick_groups("discard", action.pick.options)[0][1]
    await table.act(bea, f"discard:{'.'.join(first[:5])}", via="dm")
    assert (await table.game()).view()["discarding"] == {bea: 28}
    dm = table.dm_message(bea)
    assert dm is not None
    selects = [c for c in controls(dm) if c.kind == "select"]
    assert selects and all(":discard" in c.custom_id for c in selects), controls(dm)
    offered = sorted(v for c in selects for v in c.values)
    assert offered == sorted((await table.game()).legal_actions(bea)[0].pick.options)  # type: ignore[union-attr]
    assert len(offered) == 35  # the cards left
