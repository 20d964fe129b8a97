"""Per-game presentation. ``Renderer`` is the generic default; games refine it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cogs.render import faces
from cogs.render.spec import MAX_FIELD_VALUE, Embed, clip, newest_lines
from cogs.render.text import humanize, log_names, plural, standard_card
from engine import cards


def personal(prompt: str, reader: str | None, names: Mapping[str, str]) -> str:
    """A prompt as its reader should see it: "ann to play…" (or "Red (ann) to play…") in ann's
    hand is "Your turn: play…", and "you" wherever else it names them ("you have", "your")."""
    if reader is None:
        return humanize(prompt, names)
    mine = {**names, reader: _YOU}
    turn = _turn_end(prompt, reader)
    if turn is not None:
        return f"**Your turn:** {_second_person(humanize(prompt[turn:], mine))}"
    return _second_person(humanize(prompt, mine))


_SEAT_PREFIX = re.compile(r"[A-Z]\w* \(")  # "Red (" before a seat's id in team games


def _turn_end(prompt: str, reader: str) -> int | None:
    """Where "<reader> to " or "Red (<reader>) to " ends at the start of `prompt`, if it does.
    A fixed pattern plus string checks: a pattern per reader would refill `re`'s cache of 512
    compiled patterns with hundreds of live players, compiling anew at every draw."""
    prefix = _SEAT_PREFIX.match(prompt)
    for start in (prefix.end(), 0) if prefix else (0,):
        if not prompt.startswith(reader, start):
            continue
        end = start + len(reader)
        for after in (") to ", " to "):
            if prompt.startswith(after, end):
                return end + len(after)
    return None


_YOU = "\x00you\x00"  # where the reader's id was, until the grammar around it is fixed
_YOURS = (
    ("'s", "your"),
    (" has ", "you have "),
    (" is ", "you are "),
    (" was ", "you were "),
    (" wins", "you win"),
)


def _second_person(text: str) -> str:
    for after, said in _YOURS:
        text = text.replace(_YOU + after, said)
    text = text.replace(_YOU, "you")
    return text[0].upper() + text[1:] if text.startswith(("you ", "your ")) else text


class Renderer:
    """How one kind of game looks. Defaults work for any engine game."""

    color = 0x5865F2
    emoji = "🃏"
    recent_lines = 6  # the log lines the table's "Recent" shows at most
    # Private view keys whose line stays true once the engine drops the key (I Have It's
    # tenth card, a fact of the deal): a DM is not edited only because one went, which
    # would cost a call per DM; it loses the line when next drawn (``show.dm_key``).
    lasting: tuple[str, ...] = ()

    def __init__(self, kind: str, title: str) -> None:
        self.kind = kind
        self.title = title

    # -- words -------------------------------------------------------------------------
    def card(self, code: str) -> str:
        return standard_card(code)

    def hand_text(self, hand: list[str]) -> str:
        if not hand:
            return "*(no cards)*"
        words = [f"`{self.card(c)}`" for c in hand]
        if faces.row(hand):
            # Each face beside its card's words: a screen reader reads a face by its emoji
            # name, so a line of faces alone would be a run of codes.
            return "  ".join(f"{faces.face(c)} {w}" for c, w in zip(hand, words, strict=True))
        return "  ".join(words)

    def action_card(self, action_id: str) -> tuple[str, str | None] | None:
        """The card an action plays (code, a wild's colour), for its button's face."""
        for part in action_id.split(":")[1:]:
            code = part.split(".")[0]
            if cards.is_card(code):
                return code, None
        return None

    def thumbnail(self, view: dict[str, Any]) -> tuple[str, str | None] | None:
        """The card the table shows as its picture (the card in play), if any."""
        return None

    def segment(self, segment: str, names: Mapping[str, str]) -> str:
        """A label for one step of a multi-step choice (a card, a colour, a player...)."""
        if segment in names:
            return names[segment]
        card = self.card(segment)
        return card if card != segment else segment.replace("_", " ").capitalize()

    def pick_groups(self, action_id: str, options: list[str]) -> list[tuple[str, list[str]]]:
        """Several-card choices split into groups, one select each (empty: one select)."""
        return []

    def round_of(self, view: dict[str, Any]) -> int | None:
        """The round a game with rounds is in (private notes start afresh with each)."""
        return None

    def turn_of(self, view: dict[str, Any]) -> int | None:
        """A number that grows when a new turn begins, where the awaited players alone do not
        show it (a player awaited again right after their own move: a new turn, or the rest
        of theirs?); it may fall without one. None: unknown, the rest of theirs. The clocks
        start over when it grows."""
        return None

    def begins_round(self, public: str) -> bool:
        """An event's public line starts a new round: private notes of the move from before
        it belong to the round just scored, not to the one starting."""
        return False

    def round_summary(self, view: dict[str, Any], names: Mapping[str, str]) -> str | None:
        """What to post once when a round ends (the game goes on)."""
        return None

    def explain(
        self, view: dict[str, Any], player: str, action_id: str, names: Mapping[str, str]
    ) -> str | None:
        """Why ``player`` may not do ``action_id`` now, saying who may (None: the engine's own
        refusal says it best)."""
        actors = [p for p in view.get("actors", []) if p != player]
        if player not in view.get("actors", []) and actors:
            who = " and ".join(names.get(p, p) for p in actors[:3])
            return f"It's not your turn: the game is waiting for {who}."
        return None

    def group_label(self, prefix: str, names: Mapping[str, str]) -> str:
        """The button for a step of the picker that leads to several actions."""
        return self.segment(prefix.rsplit(":", 1)[-1], names)

    def action_label(self, action_id: str, label: str, names: Mapping[str, str]) -> str:
        return humanize(label, names)

    def table_action_label(
        self, action_id: str, label: str, view: dict[str, Any], names: Mapping[str, str]
    ) -> str:
        """An action's button on the public table: worded from what everyone may see (the
        engine's label may depend on the actor's hand)."""
        return self.action_label(action_id, label, names)

    def is_table_action(self, action_id: str) -> bool:
        """Actions shown as buttons on the public table (only ones that reveal nothing)."""
        return False

    def is_table_only(self, action_id: str) -> bool:
        """Actions offered on the table but never in a hand (they concern other players)."""
        return False

    def own_prompt(self, view: dict[str, Any], reader: str) -> str | None:
        """In a phase where everyone acts at once: what the reader is asked to do, worded so
        it stays true whatever the others do meanwhile ("choose a card in secret"). A DM says
        it as "Your turn: …" and is not edited as the others act (their progress is the
        table's). None in other phases: the game's own prompt, shown when nobody else acts."""
        return None

    def moves_in_dm(self, view: dict[str, Any], reader: str) -> bool:
        """Whether a DM the bot draws on its own (its hand changed) shows the reader's moves
        now, or only the Play button, which opens them there. False for moves that belong on
        the table (the Item Collection talk's Ready): a DM showing them would be edited each
        time its owner made one on the table, only to take the buttons away."""
        return True

    def play_button(self) -> str:
        return "Play"

    # -- the public table --------------------------------------------------------------
    def table_embed(
        self, view: dict[str, Any], names: Mapping[str, str], log: list[str], game_id: int
    ) -> Embed:
        lines = []
        prompt = view.get("prompt")
        if prompt and not view.get("finished"):
            lines.append(f"**{humanize(prompt, names)}**")
        lines += self.table_lines(view, names)
        embed = Embed(
            title=f"{self.emoji} {self.title}",
            description=clip("\n".join(lines), 4000),
            color=self.color,
            footer=f"Game #{game_id}",
        )
        picture = self.thumbnail(view)
        if picture is not None:
            embed.thumbnail = faces.url(*picture)
        # Every game's players text, clipped here once: Discord refuses a field over 1,024.
        players = clip(self.players_text(view, names), MAX_FIELD_VALUE)
        embed.fields.append(("Players", players, False))
        if log:
            plain = log_names(names)
            recent = [f"• {humanize(line, plain)}" for line in log[-self.recent_lines :]]
            # The newest lines that fit: the last says what just happened.
            embed.fields.append(("Recent", newest_lines(recent, MAX_FIELD_VALUE), False))
        if view.get("finished"):
            embed.fields.insert(0, ("Result", self.result_text(view, names), False))
        return embed

    def table_lines(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        return []

    def how_won(self, view: dict[str, Any], names: Mapping[str, str], reason: str) -> str:
        """How the game was won, without naming the winner again ("by knockout: ...")."""
        return "" if reason in ("finished", "draw") else reason

    def players_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        actors = set(view.get("actors", []))
        sizes = view.get("hand_sizes", {})
        scores = view.get("scores", {})
        lines = []
        for p in view["players"]:
            marker = "▶" if p in actors else "•"
            parts = [f"{marker} **{names.get(p, p)}**"]
            if p in sizes:
                parts.append(plural(sizes[p], "card"))
            if p in scores:
                parts.append(f"{scores[p]} pts")
            detail = " · ".join(parts[1:])
            lines.append(f"{parts[0]} — {detail}" if detail else parts[0])
        return clip("\n".join(lines), 1024)

    def result_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        winners = view.get("winners", [])
        if not winners:
            head = "🤝 The game ends in a draw."
        else:
            head = "🏆 " + " and ".join(f"**{names.get(w, w)}**" for w in winners)
            head += " wins!" if len(winners) == 1 else " win!"
        scores = view.get("scores", {})
        lowest = view.get("scoring") == "lowest"  # the lowest total wins: ranked first
        ranked = sorted(view["players"], key=lambda p: scores.get(p, 0) * (1 if lowest else -1))
        table = "\n".join(f"{names.get(p, p)}: {scores.get(p, 0)}" for p in ranked)
        return clip(f"{head}\n{table}", 1024)

    # -- the private hand -----------------------------------------------------------------
    def hand_embed(
        self,
        view: dict[str, Any],
        names: Mapping[str, str],
        notes: list[str],
        where: str,
        reader: str | None = None,
    ) -> Embed:
        hand = view.get("hand", [])
        shown = self.hand_text(hand)
        lines = [f"**Your hand** ({plural(len(hand), 'card')}):", shown]
        lines += self.private_lines(view, names, reader)
        prompt = view.get("prompt")
        if prompt and not view.get("finished"):
            lines += ["", personal(prompt, reader, names)]
        if notes:
            lines += ["", "**Only you can see:**"]
            lines += [f"• {humanize(n, names)}" for n in notes[-5:]]
        if len(text := "\n".join(lines)) > 4000:
            # A hand too big for its faces (UNO after many draws): every card in words.
            lines[1] = faces.strip(shown)
            text = "\n".join(lines)
        return Embed(
            title=f"{self.emoji} {self.title} — your hand",
            description=clip(text, 4000),
            color=self.color,
            footer=where,
        )

    def private_lines(
        self, view: dict[str, Any], names: Mapping[str, str], reader: str | None = None
    ) -> list[str]:
        """What the game tells the player ``reader`` alone, below their hand."""
        return []
