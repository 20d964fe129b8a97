"""Face names: one per card the bot can show, stable, valid as Discord emoji names."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogs.faces import catalog
from cogs.faces.catalog import ART_VERSION, NAME_PATTERN
from engine.cards import standard_deck
from engine.games.uno_cards import ALL_CODES, COLORS, WILDS


def test_every_card_has_a_face_and_the_total_stays_far_below_discords_limit() -> None:
    names = catalog.all_faces()
    expected = {catalog.uno_face(code) for code in ALL_CODES}
    expected |= {catalog.uno_face(code, colour) for code in WILDS for colour in COLORS}
    expected |= {catalog.standard_face(code) for code in standard_deck()}
    expected.add(catalog.back_face())
    assert set(names) == expected
    assert len(names) == len(set(names)) == 52 + 10 + 40 + 52 + 1 == 155
    assert len(names) < 2000 // 4  # room for other emojis and several artwork versions


def test_names_are_valid_emoji_names_that_encode_card_and_version() -> None:
    for name in catalog.all_faces():
        assert NAME_PATTERN.fullmatch(name), name
        assert name.endswith(f"_v{ART_VERSION}")
    assert catalog.uno_face("R7") == f"uno_R7_v{ART_VERSION}"
    assert catalog.uno_face("BD2") == f"uno_BD2_v{ART_VERSION}"
    assert catalog.uno_face("W4") == f"uno_W4_v{ART_VERSION}"
    assert catalog.uno_face("W", "G") == f"uno_W_G_v{ART_VERSION}"
    assert catalog.uno_face("WC3", "B") == f"uno_WC3_B_v{ART_VERSION}"
    assert catalog.standard_face("10H") == f"std_10H_v{ART_VERSION}"
    assert catalog.back_face() == f"back_v{ART_VERSION}"


def test_a_coloured_card_ignores_the_colour_in_play() -> None:
    assert catalog.uno_face("R7", "G") == catalog.uno_face("R7")


@pytest.mark.parametrize(
    "call",
    [
        lambda: catalog.uno_face("R10"),
        lambda: catalog.uno_face("W", "P"),
        lambda: catalog.uno_face("10H"),
        lambda: catalog.standard_face("1H"),
        lambda: catalog.standard_face("R7"),
    ],
)
def test_unknown_cards_are_refused(call: Callable[[], str]) -> None:
    with pytest.raises(ValueError):
        call()


def test_face_describes_what_a_name_shows() -> None:
    shown = catalog.face(catalog.uno_face("WS", "Y"))
    assert (shown.kind, shown.code, shown.colour) == ("uno", "WS", "Y")
    assert catalog.face(catalog.standard_face("QS")).code == "QS"
    assert catalog.face(catalog.back_face()).kind == "back"
    with pytest.raises(KeyError):
        catalog.face("uno_R7_v0")


def test_split_name_knows_our_faces_in_any_version_and_nothing_else() -> None:
    assert catalog.split_name("uno_R7_v1") == ("uno_R7", 1)
    assert catalog.split_name("uno_W_G_v12") == ("uno_W_G", 12)
    assert catalog.split_name("back_v0") == ("back", 0)
    assert catalog.split_name("std_10H_v3") == ("std_10H", 3)
    for other in ("party_parrot", "uno_R7", "uno_X7_v1", "std_1H_v1", "back_vx", "uno_R7_v1_v1"):
        assert catalog.split_name(other) is None, other


def test_no_faces_shows_text() -> None:
    lookup: catalog.FaceLookup = catalog.NoFaces()
    assert lookup.text(catalog.back_face()) is None
    assert lookup.url(catalog.back_face()) is None
