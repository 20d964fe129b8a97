"""Player ids in engine text become display names (cogs.render.text.humanize)."""

from __future__ import annotations

from cogs.render.kinds import personal
from cogs.render.spec import clip_words
from cogs.render.text import humanize, plain, safe_name, shown_shortened

ANN, BEA = "123456789012345678", "223456789012345678"
NAMES = {ANN: "Ann", BEA: "Bea", "-1": "Bot 1 🤖"}


def test_members_and_bots_are_named() -> None:
    assert humanize(f"{ANN} plays 7H; {BEA} draws.", NAMES) == "Ann plays 7H; Bea draws."
    assert humanize("-1 calls UNO! Then 123456789012345678.", NAMES) == (
        "Bot 1 🤖 calls UNO! Then Ann."
    )


def test_only_whole_ids_change_and_mentions_stay_mentions() -> None:
    text = f"<@{ANN}> 1{ANN} {ANN}9 x{ANN} -12 scores 12 (-1)"
    assert humanize(text, NAMES) == f"<@{ANN}> 1{ANN} {ANN}9 x{ANN} -12 scores 12 (Bot 1 🤖)"


def test_any_number_of_tables_of_players() -> None:
    # One table after another, more than any per-table cache would hold: every line right.
    for table in range(2_000):
        me, you = str(10**17 + table), str(2 * 10**17 + table)
        line = humanize(f"{me} passes to {you}.", {me: f"P{table}", you: f"Q{table}"})
        assert line == f"P{table} passes to Q{table}.", line


def test_no_names_leaves_the_text_alone() -> None:
    assert humanize(f"{ANN} wins.", {}) == f"{ANN} wins."


def test_a_prompt_in_its_readers_hand_speaks_to_them() -> None:
    """Before: War of Suits prompts ("Red (ann) to ...") never read "Your turn", and other
    lines about the reader read "you has no cards", "answer you's K♥", "you wins"."""
    names = {"1": "ann", "2": "bea"}
    assert personal("1 to play a card.", "1", names) == "**Your turn:** play a card."
    assert personal("Red (1) to double or accept the loss.", "1", names) == (
        "**Your turn:** double or accept the loss."
    )
    assert personal("Black (2) to play an Ace or reinforce; Red has decided.", "1", names) == (
        "Black (bea) to play an Ace or reinforce; Red has decided."
    )
    assert personal("1 has no cards and must take the hit.", "1", names) == (
        "You have no cards and must take the hit."
    )
    assert personal("2 to answer 1's K♥ or decline.", "1", names) == (
        "bea to answer your K♥ or decline."
    )
    assert personal("1 wins by knockout.", "1", names) == "You win by knockout."
    assert personal("Game over: 1 and 2 won.", "1", names) == "Game over: you and bea won."
    # Another player's id that merely starts like the reader's is not the reader.
    assert personal("12 to play a card.", "1", {"12": "cy"}) == "cy to play a card."
    assert personal("Red (12) to attack.", "1", {"12": "cy"}) == "Red (cy) to attack."
    assert personal("1 to play a card.", None, names) == "ann to play a card."


def test_a_name_shortened_keeps_its_start_its_end_and_its_escapes() -> None:
    name = safe_name("Chris_topher Alexander #12")  # escaped: "Chris\_topher ... \#12"
    short = shown_shortened(name, 12)
    assert short == "Chris\\_…r \\#12"
    assert plain(short) == "Chris_…r #12" and shown_shortened(name, 40) == name


def test_a_command_description_is_cut_after_a_whole_word() -> None:
    """Before: "UNO: Match the top card … or play a Wild; action car…" in Discord's list."""
    text = (
        "UNO: Match the top card of the discard pile by colour, number or symbol, "
        "or play a Wild; action cards"
    )
    assert clip_words(text, 100) == text[: text.rindex(" ", 0, 100)] + "…"
    assert clip_words("short", 100) == "short"
