"""Long lists (/games, /history) end with a count of what did not fit, never a cut line."""

from __future__ import annotations

from cogs.render.spec import whole_lines


def test_what_fits_is_shown_whole_and_the_rest_counted() -> None:
    lines = [f"**#{i}** [table](https://discord.com/channels/1/2/{i:06d})" for i in range(300)]
    out = whole_lines(lines, 4000, "more games")
    assert len(out) <= 4000
    shown = out.split("\n")
    assert shown[:-1] == lines[: len(shown) - 1]  # whole lines, in order
    assert shown[-1] == f"…and {300 - (len(shown) - 1)} more games."
    # As many as fit: one more line would not have left room for the note.
    one_more = "\n".join([*lines[: len(shown)], f"…and {300 - len(shown)} more games."])
    assert len(one_more) > 4000


def test_a_list_that_fits_is_shown_as_it_is() -> None:
    lines = ["a" * 1000, "b" * 1000, "c" * 1000, "d" * 997]
    assert whole_lines(lines, 4000) == "\n".join(lines)


def test_entries_beyond_the_lines_given_are_counted_too() -> None:
    assert whole_lines(["one", "two"], 4000, "more games", total=60) == (
        "one\ntwo\n…and 58 more games."
    )
