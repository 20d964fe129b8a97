"""The drawn deck: every face renders within Discord's limits, deterministically, and a few
match golden images so an accidental change of the artwork shows up in review.

Regenerate the goldens after a deliberate change of the artwork (and bump
``catalog.ART_VERSION``, which renames them; delete the old files)::

    .venv/bin/python -m cogs.faces.art --out tests/faces/golden <names in GOLDEN below>
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from cogs.faces import art, catalog
from cogs.faces.art import MAX_BYTES, SIZE

GOLDEN_DIR = Path(__file__).with_name("golden")
GOLDEN = [
    catalog.uno_face("R7"),
    catalog.uno_face("BS"),
    catalog.uno_face("W4", "G"),
    catalog.uno_face("WS"),
    catalog.standard_face("10H"),
    catalog.standard_face("QS"),
    catalog.back_face(),
]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_every_face_is_a_square_png_within_discords_limits(deck_pngs: dict[str, bytes]) -> None:
    assert list(deck_pngs) == catalog.all_faces()
    for name, data in deck_pngs.items():
        image = decode(data)
        assert (image.format, image.mode, image.size) == ("PNG", "RGBA", (SIZE, SIZE)), name
        assert 0 < len(data) <= MAX_BYTES, name


def test_faces_are_deterministic(deck_pngs: dict[str, bytes]) -> None:
    for name, data in deck_pngs.items():
        assert art.png(name) == data, name


def test_no_two_faces_look_the_same(deck_pngs: dict[str, bytes]) -> None:
    pixels = {hashlib.sha256(decode(d).tobytes()).hexdigest() for d in deck_pngs.values()}
    assert len(pixels) == len(deck_pngs)


def fraction_differing(a: Image.Image, b: Image.Image, threshold: int = 40) -> float:
    """The share of pixels where some channel differs by more than `threshold`."""
    bands = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA")).split()
    worst = bands[0]
    for band in bands[1:]:
        worst = ImageChops.lighter(worst, band)
    over = worst.point(lambda v: 255 if v > threshold else 0).histogram()[255]
    return over / (a.width * a.height)


@pytest.mark.parametrize("name", GOLDEN)
def test_face_matches_its_golden_image(name: str, deck_pngs: dict[str, bytes]) -> None:
    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), f"no golden for {name}: see this module's docstring to regenerate"
    # Pixels, not bytes: a new PNG encoder or a slightly different anti-aliasing must pass,
    # a changed drawing must not.
    assert fraction_differing(decode(deck_pngs[name]), Image.open(path)) < 0.005


def test_the_golden_comparison_catches_a_changed_card(deck_pngs: dict[str, bytes]) -> None:
    red, green = (decode(deck_pngs[catalog.uno_face(c)]) for c in ("R7", "G7"))
    assert fraction_differing(red, green) > 0.2
    seven, one = (decode(deck_pngs[catalog.uno_face(c)]) for c in ("R7", "R1"))
    assert fraction_differing(seven, one) > 0.02


def dominant_colour(image: Image.Image) -> tuple[int, ...]:
    """The most common opaque colour."""
    colours = image.convert("RGBA").getcolors(SIZE * SIZE) or []
    opaque = [(n, px) for n, px in colours if isinstance(px, tuple) and px[3] == 255]
    return max(opaque)[1]


@pytest.mark.parametrize("colour", "RYGB")
def test_cards_and_chosen_wilds_are_filled_with_their_colour(
    colour: str, deck_pngs: dict[str, bytes]
) -> None:
    for name in (catalog.uno_face(f"{colour}5"), catalog.uno_face("W4", colour)):
        assert dominant_colour(decode(deck_pngs[name])) == art.UNO_FILL[colour], name


def mark_shape(image: Image.Image) -> Image.Image:
    """The white pixels of the top-left colour mark: what is left when colour is not seen."""
    x, y = art.MARK_AT[0]
    half = art.MARK_SIZE * 0.57  # inside the card's frame, which differs for wilds
    crop = image.convert("L").crop((int(x - half), int(y - half), int(x + half), int(y + half)))
    return crop.point(lambda v: 255 if v > 230 else 0)


def test_each_colour_has_its_own_mark_shape_besides_its_colour(
    deck_pngs: dict[str, bytes],
) -> None:
    shapes = {c: mark_shape(decode(deck_pngs[catalog.uno_face(f"{c}3")])) for c in "RYGB"}
    for a in "RYGB":
        for b in "RYGB":
            if a < b:
                assert fraction_differing(shapes[a], shapes[b]) > 0.08, (a, b)
    # A chosen wild carries the same mark as its colour's cards.
    chosen = mark_shape(decode(deck_pngs[catalog.uno_face("W", "Y")]))
    assert fraction_differing(chosen, shapes["Y"]) < 0.02


def test_contact_sheet_has_a_row_per_colour_or_suit() -> None:
    names = [catalog.uno_face("R7"), catalog.uno_face("RS"), catalog.standard_face("AS")]
    small = art.sheet(names, cell=40, small=20)
    # Two red UNO cards side by side, the spade below, then the 20 px strip on dark grey.
    assert small.width == 2 * (40 + 6) + 6
    assert small.height == 6 + 2 * (40 + 14 + 6) + (20 + 4) + 2 * 6
    red = small.getpixel((6 + 8, 6 + 22))
    assert isinstance(red, tuple)
    assert max(abs(a - b) for a, b in zip(red, art.UNO_FILL["R"], strict=True)) < 8
    assert small.getpixel((6 + 40 + 6 + 20, 6 + 40 + 14 + 6 + 20)) == (255, 255, 255, 255)


def test_cli_writes_faces_and_sheet(tmp_path: Path) -> None:
    name = catalog.uno_face("Y0")
    art.main(["--out", str(tmp_path / "faces"), "--sheet", str(tmp_path / "s.png"), name])
    assert (tmp_path / "faces" / f"{name}.png").read_bytes() == art.png(name)
    assert Image.open(tmp_path / "s.png").width == 96 + 2 * 6
