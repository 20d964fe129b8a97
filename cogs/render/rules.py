"""/rules pages: a game's player page split into sections, plus the parts made from the code.

The player pages (docs/rules/<kind>.md) hold the rules in plain language; the options (names,
ranges, defaults) and the bot levels are written here from the same declarations the slash
command and the bots use, so the page can never disagree with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from config import Settings
from engine import Option

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
# The reminder delay the page itself gives (docs/rules/common.md): the setting's default.
NUDGE_DEFAULT = Settings(token="").nudge_after
MAX_SECTION = 4000  # an embed description holds 4096 characters


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    body: str


@dataclass(frozen=True, slots=True)
class Book:
    title: str
    intro: str
    sections: list[Section]  # the first is the quick start


def parse(text: str) -> tuple[str, str, list[Section]]:
    """(title, intro, sections) of a page: ``# Title``, a sentence, then ``## Section``s."""
    title, intro, sections = "", [], []
    current: list[str] | None = None
    name = ""
    for line in text.splitlines():
        if line.startswith("## "):
            if current is not None:
                sections.append(Section(name, "\n".join(current).strip()))
            name, current = line[3:].strip(), []
        elif line.startswith("# ") and not title:
            title = line[2:].strip()
        elif current is None:
            intro.append(line)
        else:
            current.append(line)
    if current is not None:
        sections.append(Section(name, "\n".join(current).strip()))
    return title, "\n".join(intro).strip(), sections


def option_line(name: str, option: Option) -> str:
    if option.type is bool:
        # Discord's own picker for these reads True and False.
        accepts = f"True or False (default {option.default})"
    elif option.type is int:
        accepts = f"a whole number from {option.min} to {option.max} (default {option.default})"
    elif option.choices:
        accepts = f"one of {', '.join(option.choices)} (default {option.default})"
    else:
        accepts = "text (empty by default)" if option.default == "" else "text"
    return f"• **{name}**: {option.help} Accepts {accepts}."


def options_section(
    kind: str,
    options: dict[str, Option],
    max_players: int,
    turn_timer: int,
    timer_range: tuple[int, int],
) -> Section:
    lines = [f"Choose them when you open the lobby: `/newgame {kind} <option>:<value>`."]
    lines += [option_line(name, option) for name, option in options.items()]
    lo, hi = timer_range
    lines += [
        f"• **bots**: seats filled with bots at once, 0 to {max_players - 1} "
        "(or press **Add bot** in the lobby).",
        f"• **turn_timer**: seconds per turn, {lo} to {hi}, or 0 for no timer "
        f"(default {turn_timer}).",
        "• **bot_level**: normal or hard (default normal); the host can change it in the lobby.",
    ]
    return Section("Options", "\n".join(lines))


def bots_section(levels: dict[str, str]) -> Section:
    lines = ["Bots fill empty seats: ask for them when you open the lobby, or press **Add bot**."]
    lines += [f"• **{level.capitalize()}**: {about}" for level, about in levels.items()]
    return Section("Bot levels", "\n".join(lines))


def _nudge_words(seconds: float) -> str:
    amount = int(seconds) if seconds == int(seconds) else seconds
    return f"have not moved for {amount} second{'' if amount == 1 else 's'}"


def book(
    kind: str,
    summary: str,
    options: dict[str, Option],
    max_players: int,
    turn_timer: int,
    timer_range: tuple[int, int],
    levels: dict[str, str],
    rules_dir: Path = RULES_DIR,
    nudge_after: float = NUDGE_DEFAULT,
) -> Book:
    """Everything /rules shows for one game: its page, then options, bots, and the common
    sections that hold at every table (with this bot's reminder delay, ``nudge_after``)."""
    page = rules_dir / f"{kind}.md"
    if page.is_file():
        title, intro, sections = parse(page.read_text(encoding="utf-8"))
    else:
        title, intro, sections = kind, summary, [Section("Quick start", summary)]
    sections = [
        *sections,
        options_section(kind, options, max_players, turn_timer, timer_range),
        bots_section(levels),
    ]
    common = rules_dir / "common.md"
    if common.is_file():
        text = common.read_text(encoding="utf-8")
        # The page (also read on GitHub) gives the default delay; this bot's is its owner's.
        text = text.replace(_nudge_words(NUDGE_DEFAULT), _nudge_words(nudge_after))
        sections += parse(text)[2]
    return Book(title, intro, sections)
