"""How I Have It looks on Discord.

The table shows the play in front of everyone, whose turn it is, the pile and each hand size.
Which cards a decline moved, and so the restricted lead's rank limit, stay private: the engine
tells the taker and the decliner (their "Only you can see" notes), and only they get
``lead_limit`` in their views, so only their hand screens mention the limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.render.kinds import Renderer
from cogs.render.text import humanize, plural, standard_card
from engine.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS


def play_text(cards: list[str]) -> str:
    """``["7C"]`` -> ``7♣``; ``["7C", "7H"]`` -> ``pair 7♣ 7♥``."""
    shown = " ".join(standard_card(c) for c in cards)
    return shown if len(cards) == 1 else f"pair {shown}"


def rank_name(code: str) -> str:
    return RANK_NAMES.get(code, code)


class IHaveItRenderer(Renderer):
    color = 0x2E8B57
    emoji = "✋"
    lasting = ("drawn",)

    def action_label(self, action_id: str, label: str, names: Mapping[str, str]) -> str:
        verb, _, rest = action_id.partition(":")
        if verb == "lead" and rest:
            return f"Lead {play_text(rest.split('.'))}"
        if verb == "answer" and rest:
            return f"Answer with {play_text(rest.split('.'))}"
        # "decline": the engine's label names the taker and the count ("let X take 1 card").
        return humanize(label, names)

    def thumbnail(self, view: dict[str, Any]) -> tuple[str, str | None] | None:
        in_play = view.get("in_play")
        return (in_play["cards"][0], None) if in_play and in_play.get("cards") else None

    def is_table_action(self, action_id: str) -> bool:
        # Declining is always allowed, so a public Decline button reveals nothing about the
        # hand; answers and leads name cards and stay in the player's private picker.
        return action_id == "decline"

    def play_button(self) -> str:
        return "Lead / answer"

    # -- the public table ------------------------------------------------------------------
    def table_lines(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        lines = []
        in_play = view.get("in_play")
        if in_play:
            owner = names.get(in_play["player"], in_play["player"])
            lines.append(f"🂠 In front of everyone: **{play_text(in_play['cards'])}** by {owner}")
        elif not view.get("finished"):
            lines.append("🂠 Nothing in play: a fresh lead.")
        if view.get("restricted") and view.get("current"):
            who = names.get(view["current"], view["current"])
            # The limit itself names a taken rank: public text only says that there is one.
            lines.append(
                f"🔒 Restricted lead: {who} must lead no higher than the lowest card taken, "
                "if they can."
            )
        lines.append(
            f"Draw pile: {plural(view.get('pile', 0), 'card')} · "
            f"Out of the game: {plural(view.get('discard', 0), 'card')}"
        )
        if view.get("redeals"):
            lines.append(f"Dealt again {plural(view['redeals'], 'time')} (a hand met a goal).")
        return lines

    def players_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        current = None if view.get("finished") else view.get("current")
        sizes = view.get("hand_sizes", {})
        out = set(view.get("out", []))
        winners = set(view.get("winners", []))
        lines = []
        for p in view["players"]:
            marker = "▶" if p == current else "•"
            detail = plural(sizes.get(p, 0), "card")
            if p in out:
                detail += " · out"
            if p in winners:
                detail += " · 🏆"
            if p == view.get("starter"):
                detail += " · started"
            lines.append(f"{marker} **{names.get(p, p)}** — {detail}")
        return "\n".join(lines)

    def how_won(self, view: dict[str, Any], names: Mapping[str, str], reason: str) -> str:
        if reason == "last with cards":
            return "as the last player with cards"
        goal = view.get("goal")
        if goal:
            return f"by collecting {goal}"
        return "by collecting four of a rank or seven of a suit"

    def result_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        winners = view.get("winners", [])
        if not winners:
            return super().result_text(view, names)
        winner = winners[0]
        alive = [p for p in view["players"] if p not in view.get("out", [])]
        how = (
            "the last player with cards"
            if alive == [winner]
            else view.get("goal") or "four of a rank or seven of a suit"
        )
        scores = view.get("scores", {})
        table = " · ".join(f"{names.get(p, p)} {scores.get(p, 0)}" for p in view["players"])
        return f"🏆 **{names.get(winner, winner)}** wins: {how}.\nScores: {table}"

    # -- the private hand ----------------------------------------------------------------------
    def private_lines(
        self, view: dict[str, Any], names: Mapping[str, str], reader: str | None = None
    ) -> list[str]:
        hand = view.get("hand", [])
        lines = []
        if hand:
            counts = {s: sum(1 for c in hand if c[-1] == s) for s in SUITS}
            suits = " ".join(f"{SUIT_SYMBOLS[s]}{n}" for s, n in counts.items() if n)
            lines.append(f"By suit: {suits} · goals: four of a rank or seven of a suit.")
        drawn = view.get("drawn")
        if drawn:
            lines.append(f"Your tenth card, drawn from the pile: **{standard_card(drawn)}**.")
        limit = view.get("lead_limit")
        if limit and reader is not None and reader == view.get("current"):
            # The decliner's, who leads under it (their hand changes as they do, so the line
            # goes at no extra edit). The taker's note says it instead: a line in their DM
            # would cost an edit of it when the lead is made, and stay untrue until then.
            lines.append(
                f"🔒 Your lead: a single or a pair of rank **{rank_name(limit)}** or lower "
                "(anything if there is none)."
            )
        return lines
