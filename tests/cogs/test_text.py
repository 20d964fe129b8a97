"""Player ids in engine text become display names (cogs.render.text.humanize)."""

from __future__ import annotations

from cogs.render.text import humanize

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
