"""Draws the card faces (Pillow, no Discord): ``render(name)`` and ``png(name)``.

Every face is a SIZE x SIZE RGBA image with a card shape on a transparent square, drawn at
_SCALE times the size and scaled down once, so edges are smooth and output is deterministic
(same Pillow, same bytes). Made to be read at emoji size (22-48 px): one big rank or symbol,
strong colour, and a shape in the corners so colours can be told apart without seeing colour:
red ●, yellow ▲, green ■, blue ◆. Wilds are black with a four-colour wheel; a wild shown with
its chosen colour takes that colour's fill and corner shape inside a black frame.

    python -m cogs.faces.art --sheet docs/cards.png   # contact sheet of the whole deck
    python -m cogs.faces.art --out DIR [NAME...]      # one PNG per face, named <face>.png
"""

from __future__ import annotations

import argparse
import functools
import io
import math
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from cogs.faces import catalog
from cogs.faces.catalog import Face

SIZE = 128  # Discord shows emojis at most 128 px wide (48 px "jumbo", 22 px in text)
MAX_BYTES = 256 * 1024  # Discord's emoji upload limit
_SCALE = 4  # drawn at 512 px, then scaled down once
FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSans-Bold.ttf"

RGBA = tuple[int, int, int, int]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in 0..SIZE units
Point = tuple[float, float]

INK: RGBA = (22, 22, 26, 255)
WHITE: RGBA = (255, 255, 255, 255)
PAPER: RGBA = (252, 250, 244, 255)
UNO_FILL: dict[str, RGBA] = {
    "R": (218, 37, 29, 255),
    "Y": (246, 196, 0, 255),
    "G": (40, 156, 60, 255),
    "B": (16, 92, 204, 255),
}
WILD_FILL: RGBA = (28, 28, 32, 255)
SUIT_INK: dict[str, RGBA] = {
    "H": (206, 18, 38, 255),
    "D": (206, 18, 38, 255),
    "C": INK,
    "S": INK,
}
SUIT_GLYPH = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
BACK_FILL: RGBA = (30, 58, 138, 255)
BACK_LINE: RGBA = (70, 110, 200, 255)

# Geometry, in SIZE units.
CARD: Box = (12, 1, 116, 127)
CARD_RADIUS = 14
EDGE = 2.0  # dark rim, so a white card still has an outline on a light theme
FRAME = 6.0  # white (or black, for a chosen wild) frame inside the rim
SYMBOL_BOX: Box = (24, 30, 104, 98)
MARK_SIZE = 22.0
MARK_AT: tuple[Point, Point] = ((33.0, 24.0), (95.0, 104.0))  # top-left, bottom-right
OUTLINE = 3.0  # dark outline around white symbols
_INSET = EDGE + FRAME
FILL_BOX: Box = (CARD[0] + _INSET, CARD[1] + _INSET, CARD[2] - _INSET, CARD[3] - _INSET)
FILL_RADIUS = CARD_RADIUS - _INSET * 0.6


class _Canvas:
    """A supersampled drawing surface speaking SIZE units."""

    def __init__(self) -> None:
        self.image = Image.new("RGBA", (SIZE * _SCALE, SIZE * _SCALE), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def px(value: float) -> int:
        return round(value * _SCALE)

    def box(self, box: Box, grow: float = 0.0) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box
        return (
            self.px(x0 - grow),
            self.px(y0 - grow),
            self.px(x1 + grow),
            self.px(y1 + grow),
        )

    def rounded(self, box: Box, radius: float, fill: RGBA) -> None:
        self.draw.rounded_rectangle(self.box(box), radius=self.px(radius), fill=fill)

    def ellipse(self, box: Box, fill: RGBA, grow: float = 0.0) -> None:
        self.draw.ellipse(self.box(box, grow), fill=fill)

    def ring(self, box: Box, width: float, fill: RGBA, grow: float = 0.0) -> None:
        self.draw.ellipse(self.box(box, grow), outline=fill, width=self.px(width + 2 * grow))

    def pie(self, box: Box, start: float, end: float, fill: RGBA) -> None:
        self.draw.pieslice(self.box(box), start, end, fill=fill)

    def polygon(self, points: Sequence[Point], fill: RGBA, grow: float = 0.0) -> None:
        scaled = [(x * _SCALE, y * _SCALE) for x, y in points]
        if grow:
            # A closed, round-jointed line centred on the edge: the polygon grown by `grow`.
            self.draw.line(
                [*scaled, scaled[0], scaled[1]], fill=fill, width=self.px(2 * grow), joint="curve"
            )
        self.draw.polygon(scaled, fill=fill)

    def bar(self, a: Point, b: Point, width: float, fill: RGBA, grow: float = 0.0) -> None:
        """A thick line with round ends."""
        half = width / 2 + grow
        self.draw.line(
            [(a[0] * _SCALE, a[1] * _SCALE), (b[0] * _SCALE, b[1] * _SCALE)],
            fill=fill,
            width=self.px(2 * half),
        )
        for x, y in (a, b):
            self.draw.ellipse(self.box((x, y, x, y), half), fill=fill)

    def text(
        self, text: str, box: Box, fill: RGBA, stroke: float = 0.0, stroke_fill: RGBA = INK
    ) -> None:
        """`text` as large as fits in `box`, its ink centred there."""
        width = self.px(stroke)
        font, (left, top, right, bottom) = _fit(text, self.box(box), width)
        x0, y0, x1, y1 = self.box(box)
        x = (x0 + x1) / 2 - (left + right) / 2
        y = (y0 + y1) / 2 - (top + bottom) / 2
        self.draw.text(
            (x, y),
            text,
            font=font,
            fill=fill,
            anchor="ls",
            stroke_width=width,
            stroke_fill=stroke_fill,
        )

    def finish(self) -> Image.Image:
        return self.image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_PATH), size)


@cache
def _fit(
    text: str, box: tuple[int, int, int, int], stroke: int
) -> tuple[ImageFont.FreeTypeFont, tuple[float, float, float, float]]:
    """The largest font whose ink (with stroke) fits the pixel box, and that ink's bbox."""
    width, height = box[2] - box[0], box[3] - box[1]
    low, high = 4, height * 2
    while low < high:  # the largest size that fits
        mid = (low + high + 1) // 2
        left, top, right, bottom = _font(mid).getbbox(text, anchor="ls", stroke_width=stroke)
        if right - left <= width and bottom - top <= height:
            low = mid
        else:
            high = mid - 1
    font = _font(low)
    return font, font.getbbox(text, anchor="ls", stroke_width=stroke)


# --- symbols ---------------------------------------------------------------------------------


Symbol = Callable[[_Canvas, RGBA, float], None]  # draws itself grown by the float


def _outlined(canvas: _Canvas, draw: Symbol, fill: RGBA = WHITE) -> None:
    """Draws a symbol twice: grown in ink for its outline, then in `fill` on top."""
    draw(canvas, INK, OUTLINE)
    draw(canvas, fill, 0.0)


def _arrow(tail: Point, tip: Point, shaft: float, head: float, head_len: float) -> list[Point]:
    """A straight arrow as a 7-point polygon."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    neck = (tip[0] - ux * head_len, tip[1] - uy * head_len)

    def at(base: Point, off: float) -> Point:
        return (base[0] + nx * off, base[1] + ny * off)

    return [
        at(tail, shaft / 2),
        at(neck, shaft / 2),
        at(neck, head / 2),
        tip,
        at(neck, -head / 2),
        at(neck, -shaft / 2),
        at(tail, -shaft / 2),
    ]


def _skip(canvas: _Canvas, fill: RGBA, grow: float) -> None:
    cx, cy, r, w = 64.0, 65.0, 28.0, 10.0
    canvas.ring((cx - r, cy - r, cx + r, cy + r), w, fill, grow)
    d = (r - w / 2) * math.sqrt(0.5)
    canvas.bar((cx - d, cy + d), (cx + d, cy - d), w, fill, grow)


def _reverse(canvas: _Canvas, fill: RGBA, grow: float) -> None:
    canvas.polygon(_arrow((34, 53), (98, 53), 11, 27, 21), fill, grow)
    canvas.polygon(_arrow((94, 79), (30, 79), 11, 27, 21), fill, grow)


def _swap(canvas: _Canvas, fill: RGBA, grow: float) -> None:
    canvas.polygon(_arrow((50, 96), (50, 34), 11, 27, 21), fill, grow)
    canvas.polygon(_arrow((78, 34), (78, 96), 11, 27, 21), fill, grow)


def _wheel(canvas: _Canvas, centre: Point, radius: float) -> None:
    """UNO's four-colour wheel, red top-left, blue top-right, green and yellow below."""
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    canvas.ellipse(box, INK, grow=max(1.5, radius * 0.12))
    for colour, start in (("G", 0), ("Y", 90), ("R", 180), ("B", 270)):
        canvas.pie(box, start, start + 90, UNO_FILL[colour])


def _mark(canvas: _Canvas, colour: str, centre: Point, size: float) -> None:
    """The colour's shape, white with an ink outline: red ●, yellow ▲, green ■, blue ◆."""
    cx, cy = centre
    h = size / 2
    for fill, grow in ((INK, 2.0), (WHITE, 0.0)):
        if colour == "R":
            canvas.ellipse((cx - h, cy - h, cx + h, cy + h), fill, grow)
        elif colour == "Y":
            top, base = cy - h * 1.1, cy + h * 0.85
            canvas.polygon([(cx, top), (cx + h * 1.15, base), (cx - h * 1.15, base)], fill, grow)
        elif colour == "G":
            s = h * 0.9
            canvas.polygon(
                [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)], fill, grow
            )
        else:
            s = h * 1.2
            canvas.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill, grow)


# --- faces -----------------------------------------------------------------------------------


def _card(canvas: _Canvas, frame: RGBA, fill: RGBA) -> None:
    """Rim, frame and fill of a card."""
    x0, y0, x1, y1 = CARD
    canvas.rounded(CARD, CARD_RADIUS, INK)
    canvas.rounded((x0 + EDGE, y0 + EDGE, x1 - EDGE, y1 - EDGE), CARD_RADIUS - EDGE, frame)
    canvas.rounded(FILL_BOX, FILL_RADIUS, fill)


def _uno_symbol(canvas: _Canvas, value: str) -> None:
    if value == "S":
        _outlined(canvas, _skip)
    elif value == "R":
        _outlined(canvas, _reverse)
    elif value == "WS":
        _outlined(canvas, _swap)
    elif value == "W":
        _wheel(canvas, (64, 64), 33)
    else:
        text = {"D2": "+2", "W4": "+4"}.get(value) or value.replace("WC", "C")
        canvas.text(text, SYMBOL_BOX, WHITE, stroke=OUTLINE)


def _uno(canvas: _Canvas, face: Face) -> None:
    code, colour = face.code, face.colour
    wild = code.startswith("W")
    if not wild:
        _card(canvas, WHITE, UNO_FILL[code[0]])
        for at in MARK_AT:
            _mark(canvas, code[0], at, MARK_SIZE)
        _uno_symbol(canvas, code[1:])
        return
    if colour is None:
        _card(canvas, WHITE, WILD_FILL)
        if code != "W":
            for at in MARK_AT:
                _wheel(canvas, at, MARK_SIZE / 2 + 1)
    else:
        _card(canvas, WILD_FILL, UNO_FILL[colour])
        _mark(canvas, colour, MARK_AT[0], MARK_SIZE)
        _wheel(canvas, MARK_AT[1], MARK_SIZE / 2 + 1)
    _uno_symbol(canvas, code)


def _standard(canvas: _Canvas, face: Face) -> None:
    rank, suit = face.code[:-1], face.code[-1]
    _card(canvas, PAPER, PAPER)
    ink = SUIT_INK[suit]
    canvas.text(rank, (22, 10, 106, 62), ink)
    canvas.text(SUIT_GLYPH[suit], (26, 68, 102, 118), ink)


def _back(canvas: _Canvas) -> None:
    """Navy with a light lattice and a question mark: the same back for every game."""
    _card(canvas, WHITE, BACK_FILL)
    full = SIZE * _SCALE
    lattice = Image.new("L", canvas.image.size, 0)
    lines = ImageDraw.Draw(lattice)
    for k in range(-full, 2 * full, 14 * _SCALE):
        lines.line([(k, 0), (k + full, full)], fill=255, width=2 * _SCALE)
        lines.line([(k, full), (k + full, 0)], fill=255, width=2 * _SCALE)
    clip = Image.new("L", canvas.image.size, 0)
    ImageDraw.Draw(clip).rounded_rectangle(
        canvas.box(FILL_BOX), radius=canvas.px(FILL_RADIUS), fill=255
    )
    canvas.image.paste(BACK_LINE, (0, 0), ImageChops.multiply(lattice, clip))
    canvas.ellipse((34, 40, 94, 88), INK)
    canvas.ellipse((37, 43, 91, 85), WHITE)
    canvas.text("?", (48, 46, 80, 82), BACK_FILL)


def render(name: str) -> Image.Image:
    """The face with this (current) name, as a SIZE x SIZE RGBA image."""
    face = catalog.face(name)
    canvas = _Canvas()
    if face.kind == "uno":
        _uno(canvas, face)
    elif face.kind == "std":
        _standard(canvas, face)
    else:
        _back(canvas)
    return canvas.finish()


@functools.cache
def png(name: str) -> bytes:
    """The face as PNG bytes, ready for ``create_application_emoji`` (drawn once a process:
    1.3 MB for the whole deck)."""
    buffer = io.BytesIO()
    render(name).save(buffer, format="PNG")
    return buffer.getvalue()


# --- contact sheet and CLI -------------------------------------------------------------------


def sheet(names: Sequence[str] | None = None, cell: int = 96, small: int = 28) -> Image.Image:
    """A contact sheet: rows of faces at `cell` px with their names, then the same faces at
    `small` px on a Discord-dark strip, to judge them at the size players see."""
    names = list(names if names is not None else catalog.all_faces())
    rows = _sheet_rows(names)
    columns = max(len(row) for row in rows)
    label_h, pad = 14, 6
    font = _font(11)
    width = columns * (cell + pad) + pad
    small_per_row = (width - pad) // (small + 4)
    small_rows = math.ceil(len(names) / small_per_row)
    height = len(rows) * (cell + label_h + pad) + pad + small_rows * (small + 4) + 2 * pad
    out = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    draw = ImageDraw.Draw(out)
    y = pad
    for row in rows:
        for col, name in enumerate(row):
            x = pad + col * (cell + pad)
            out.alpha_composite(render(name).resize((cell, cell), Image.Resampling.LANCZOS), (x, y))
            draw.text((x + cell / 2, y + cell + 1), name, font=font, fill=INK, anchor="mt")
        y += cell + label_h + pad
    draw.rectangle((0, y, width, height), fill=(49, 51, 56, 255))  # Discord's dark theme
    y += pad
    for i, name in enumerate(names):
        x = pad + (i % small_per_row) * (small + 4)
        yy = y + (i // small_per_row) * (small + 4)
        out.alpha_composite(render(name).resize((small, small), Image.Resampling.LANCZOS), (x, yy))
    return out


def _sheet_rows(names: list[str]) -> list[list[str]]:
    """One row per UNO colour, per set of wilds, per suit; the back on its own."""
    rows: dict[str, list[str]] = {}
    for name in names:
        face = catalog.face(name)
        if face.kind == "uno" and not face.code.startswith("W"):
            key = f"uno {face.code[0]}"
        elif face.kind == "uno":
            key = f"wild {face.colour or ''}"
        elif face.kind == "std":
            key = f"std {face.code[-1]}"
        else:
            key = "back"
        rows.setdefault(key, []).append(name)
    return list(rows.values())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Draw the card faces.")
    parser.add_argument("--sheet", type=Path, help="write a contact sheet of every face here")
    parser.add_argument("--out", type=Path, help="write faces as DIR/<name>.png")
    parser.add_argument("names", nargs="*", help="only these faces (default: all)")
    args = parser.parse_args(argv)
    if args.sheet is None and args.out is None:
        parser.error("give --sheet FILE and/or --out DIR")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for name in args.names or catalog.all_faces():
            (args.out / f"{name}.png").write_bytes(png(name))
    if args.sheet is not None:
        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        sheet(args.names or None).convert("RGB").save(args.sheet, format="PNG", optimize=True)


if __name__ == "__main__":
    main()
