"""A War of Suits on Discord: the window's prompt and the table's Recent."""

from __future__ import annotations

from cogs.render.warofsuits import fold_draws
from engine.games.warofsuits import COLOUR_CARDS
from tests.discord.driver import Table, message_text


async def first_choice(
    table: Table, hands: list[list[str]], decks: list[list[str]], piles: list[list[str]]
) -> None:
    """A battle about to begin: both sides choose, nothing doubled, no Ace in play."""
    await table.set_state(
        hands=hands,
        decks=decks,
        piles=piles,
        field=[[], []],
        pending=[None, None],
        phase="choose",
        doubled=[False, False],
        turn=None,
        ace=None,
    )


async def test_window_prompt_offers_no_double_once_every_double_is_seen(simcord_env) -> None:
    """Battle: Red K♥ against Black 9♠. Every card Black could double with (9♣, K♣, K♠) has
    already been won into a victory pile, in plain sight; Black still gets the window because
    it may hold an Ace. Before, the table and Black's DM said "Black to double, claim with an
    Ace or accept the loss", offering a double everyone could see was impossible. Now the
    prompt is worded from the same public information as the window: "Black to claim with an
    Ace or accept the loss"."""
    table = await Table.start(simcord_env, "warofsuits", 2, seed=5)
    red, black = (await table.game()).players
    red_hand, black_hand = ["KH", "2D", "3D"], ["9S", "AC", "4C"]
    piles = [["9C", "KC", "KS"], []]
    used = set(red_hand + black_hand + piles[0])
    decks = [[c for c in COLOUR_CARDS[s] if c not in used] for s in (0, 1)]
    await first_choice(table, [red_hand, black_hand], decks, piles)
    await table.act(red, "choose:KH")
    await table.act(black, "choose:9S")
    game = await table.game()
    assert game.view()["window"] == [black]
    assert not any(a.id.startswith("double") for a in game.legal_actions(black))
    assert game.view()["prompt"] == (
        f"Black ({black}) to claim with an Ace or accept the loss (9 against 13)."
    )
    text = message_text(table.table_message())
    assert "to double" not in text, text


async def test_long_head_to_head_keeps_the_whole_move_in_recent(simcord_env) -> None:
    """5 against 5, both reinforce; head to head is 10 against 10 and stays tied through seven
    deck draws (4, 6, 7, 8, 9, 10, J on both sides) before K beats Q. Before, Recent (10
    lines) started in the middle of the draws: "Head to head: ... adds ..." and the first
    draws were gone, though the rules page promises "Recent lists each step". Now the
    renderer tells a head to head's run of "Still tied" draws in one line (every card each
    side added, in order, and the totals it stayed tied at), so the whole move fits."""
    table = await Table.start(simcord_env, "warofsuits", 2, seed=5)
    red, black = (await table.game()).players
    red_hand, black_hand = ["5D", "2D", "3D"], ["5C", "2C", "3C"]
    red_top = ["4D", "6D", "7D", "8D", "9D", "10D", "JD", "KD"]
    black_top = ["4C", "6C", "7C", "8C", "9C", "10C", "JC", "QC"]
    decks = [
        red_top + [c for c in COLOUR_CARDS[0] if c not in red_hand + red_top],
        black_top + [c for c in COLOUR_CARDS[1] if c not in black_hand + black_top],
    ]
    await first_choice(table, [red_hand, black_hand], decks, [[], []])
    await table.act(red, "choose:5D")
    await table.act(black, "choose:5C")
    assert (await table.game()).view()["phase"] == "tie"
    await table.act(red, "reinforce")
    await table.act(black, "reinforce")
    game = await table.game()
    assert game.view()["last_battle"]["winner"] == red
    fields = {f.name: f.value for f in table.table_message().embeds[0].fields}
    recent = fields["Recent"]
    assert "wins battle 1" in recent
    assert "Head to head: Red (ann-games) adds 2♦, 3♦" in recent, recent
    assert (
        "Still tied: 8 draws from the deck: Red (ann-games) adds 4♦, 6♦, 7♦, 8♦, 9♦, 10♦, J♦, "
        "K♦ and Black (bea-games) adds 4♣, 6♣, 7♣, 8♣, 9♣, 10♣, J♣, Q♣ (tied again at 14, 20, "
        "27, 35, 44, 54 and 65): 78 against 77." in recent
    ), recent
    assert recent.count("Still tied") == 1, recent


def test_a_single_draw_and_other_lines_are_left_as_they_are() -> None:
    """Only a run of two or more draws is folded; a side whose deck ran out adds fewer."""
    one = "Still tied: Red (1) adds 4♦, Black (2) adds 4♣ from the deck: 14 against 14."
    assert fold_draws(["a", one, "b"]) == ["a", one, "b"]
    run = [
        "Still tied: Red (1) adds 4♦, Black (2) adds 4♣ from the deck: 14 against 14.",
        "Still tied: Red (1) adds K♦ from the deck: 27 against 14.",
    ]
    assert fold_draws(["a", *run, "b"]) == [
        "a",
        "Still tied: 2 draws from the deck: Red (1) adds 4♦, K♦ and Black (2) adds 4♣ "
        "(tied again at 14): 27 against 14.",
        "b",
    ]


async def test_a_very_long_head_to_head_keeps_its_start_in_recent(simcord_env) -> None:
    """As above, tied through thirteen deck draws. Before, the game kept only its last 12
    public lines before the renderer folded the draws: the move's first lines (the reveal,
    the tie, the head to head) were gone from Recent. Now a move's own lines are all kept."""
    table = await Table.start(simcord_env, "warofsuits", 2, seed=5)
    red, black = (await table.game()).players
    red_hand, black_hand = ["5D", "2D", "3D"], ["5C", "2C", "3C"]
    ranks = ["4", "6", "7", "8", "9", "10", "J"]
    red_top = [r + "D" for r in ranks] + [r + "H" for r in ranks[:6]] + ["KD"]
    black_top = [r + "C" for r in ranks] + [r + "S" for r in ranks[:6]] + ["QC"]
    decks = [
        red_top + [c for c in COLOUR_CARDS[0] if c not in red_hand + red_top],
        black_top + [c for c in COLOUR_CARDS[1] if c not in black_hand + black_top],
    ]
    await first_choice(table, [red_hand, black_hand], decks, [[], []])
    await table.act(red, "choose:5D")
    await table.act(black, "choose:5C")
    await table.act(red, "reinforce")
    await table.act(black, "reinforce")
    assert (await table.game()).view()["last_battle"]["winner"] == red
    recent = {f.name: f.value for f in table.table_message().embeds[0].fields}["Recent"]
    assert "Head to head: Red (ann-games) adds 2♦, 3♦" in recent, recent
    assert "Still tied: 14 draws from the deck" in recent, recent
    assert "wins battle 1" in recent, recent
