"""How Haymaker looks on Discord.

The table says plainly who attacks and who defends, what is on the table and its strength.
A haymaker and a block choose several cards at once: the engine offers them as Pick actions,
which the shared picker shows as one multi-select of the hand (it works the same on mobile);
the engine refuses a mixed-suit haymaker or a block that falls short, and the refusal reaches
the player as an ephemeral reply. The hand is grouped by suit with each suit's sum, since
haymakers are built from one suit and blocks are about totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.render import faces
from cogs.render.kinds import Renderer
from cogs.render.text import humanize, plural, standard_card
from engine.cards import SUIT_SYMBOLS, SUITS, value


def cards_text(cards: list[str]) -> str:
    return " ".join(standard_card(c) for c in cards)


def strength(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


class HaymakerRenderer(Renderer):
    color = 0xC0392B
    emoji = "🥊"

    def turn_of(self, view: dict[str, Any]) -> int | None:
        # Every attack and every block ends its player's part: awaited again at once (a
        # reversal makes the defender the attacker), it is "the next turn" (the rules).
        return len(view.get("history") or ())

    def hand_text(self, hand: list[str]) -> str:
        if not hand:
            return "*(no cards)*"
        lines = []
        for s in SUITS:
            mine = [c for c in hand if c[-1] == s]
            if mine:
                shown = "  ".join(f"`{standard_card(c)}`" for c in mine)
                pictures = faces.row(mine)
                prefix = f"{pictures} " if pictures else ""
                lines.append(f"{prefix}{SUIT_SYMBOLS[s]} {shown} — sum {strength(mine)}")
        return "\n".join(lines)

    def action_label(self, action_id: str, label: str, names: Mapping[str, str]) -> str:
        verb, _, rest = action_id.partition(":")
        if verb == "attack" and rest:
            return f"Attack with {standard_card(rest)}"
        if verb == "haymaker" and not rest:
            return "Haymaker: choose 2+ cards of one suit"
        if verb == "block" and not rest:
            # "Block (cards summing to 7 or more)" -> the same, as an instruction.
            return humanize(label, names).replace("Block (", "Block: choose ").rstrip(")")
        return humanize(label, names)  # "hit": the engine says how many cards it costs

    def pick_groups(self, action_id: str, options: list[str]) -> list[tuple[str, list[str]]]:
        # A haymaker is two or more cards of one suit: one choice per suit, with its sum, so
        # a mixed-suit haymaker cannot even be picked.
        if action_id != "haymaker":
            return []
        groups = []
        for s in SUITS:
            cards = [c for c in options if c[-1] == s]
            if len(cards) >= 2:
                label = f"Haymaker in {SUIT_SYMBOLS[s]} (all of them: {strength(cards)})"
                groups.append((label, cards))
        return groups

    def thumbnail(self, view: dict[str, Any]) -> tuple[str, str | None] | None:
        attack = view.get("attack")
        return (attack["cards"][0], None) if attack and attack.get("cards") else None

    def is_table_action(self, action_id: str) -> bool:
        # Taking the hit is always offered to the defender and passing depends only on the
        # public "attacked last turn", so both may be public buttons. Attacks name cards, and
        # Haymaker / Block are offered only when the hand allows one, so they stay private.
        return action_id in ("hit", "pass")

    def play_button(self) -> str:
        return "Attack / block"

    # -- the public table ------------------------------------------------------------------
    def table_lines(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        attacker = names.get(view["attacker"], view["attacker"])
        defender = names.get(view["defender"], view["defender"])
        lines = [f"⚔️ Attacker: **{attacker}** · 🛡️ Defender: **{defender}**"]
        attack = view.get("attack")
        if attack:
            kind = "Haymaker" if attack["haymaker"] else "Attack"
            lines.append(
                f"On the table: {kind} **{cards_text(attack['cards'])}** — "
                f"strength **{attack['strength']}**"
            )
        elif not view.get("finished"):
            lines.append("On the table: nothing yet.")
        if view.get("can_pass") and not view.get("finished"):
            lines.append(f"{attacker} attacked last turn, so may pass.")
        dealer = names.get(view["dealer"], view["dealer"])
        lines.append(
            f"Deck: {plural(view.get('deck', 0), 'card')} · "
            f"Burned: {view.get('burned', 0)} (never shown) · Dealer: {dealer}"
        )
        return lines

    def players_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        actors = set(view.get("actors", []))
        sizes = view.get("hand_sizes", {})
        piles = view.get("discards", {})
        lines = []
        for p in view["players"]:
            marker = "▶" if p in actors else "•"
            role = "⚔️ attacker" if p == view["attacker"] else "🛡️ defender"
            lines.append(
                f"{marker} **{names.get(p, p)}** {role} — {plural(sizes.get(p, 0), 'card')} in "
                f"hand · discard pile {piles.get(p, 0)}"
            )
        return "\n".join(lines)

    def how_won(self, view: dict[str, Any], names: Mapping[str, str], reason: str) -> str:
        winners = view.get("winners", [])
        piles = view.get("discards", {})
        if not winners:
            return "on a decision: both discard piles are the same size"
        loser = next(p for p in view["players"] if p != winners[0])
        lost = names.get(loser, loser)
        return {
            "knockout": f"by knockout: {lost} could not pay for the hit",
            "technical knockout": f"by technical knockout: {lost} had no cards and no pass",
            "decision": (
                f"on a decision, {piles.get(winners[0], 0)} discarded cards to "
                f"{piles.get(loser, 0)}"
            ),
        }.get(reason, "")

    def result_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        result = view.get("result")
        winners = view.get("winners", [])
        piles = view.get("discards", {})
        if winners:
            winner = winners[0]
            loser = next(p for p in view["players"] if p != winner)
            won, lost = names.get(winner, winner), names.get(loser, loser)
            head = {
                "knockout": f"🥊 **Knockout!** {won} wins: {lost} could not pay for the hit.",
                "technical knockout": (
                    f"🥊 **Technical knockout!** {won} wins: {lost} had no cards and no pass."
                ),
                "decision": (
                    f"⚖️ **Decision:** {won} wins, {piles.get(winner, 0)} discarded cards "
                    f"to {piles.get(loser, 0)}."
                ),
            }.get(result or "", f"🏆 {won} wins.")
        else:
            head = "🤝 **Draw by decision:** both discard piles are the same size."
        scores = " · ".join(f"{names.get(p, p)} {piles.get(p, 0)}" for p in view["players"])
        return f"{head}\nDiscard piles (the score): {scores}"

    # -- the private hand ----------------------------------------------------------------------
    def private_lines(
        self, view: dict[str, Any], names: Mapping[str, str], reader: str | None = None
    ) -> list[str]:
        hand = view.get("hand", [])
        lines = [f"All your cards add up to {strength(hand)}."] if hand else []
        attack = view.get("attack")
        # Public, and new at every move: only beside a prompt (a DM between its owner's turns
        # has none, and is not redrawn at every move for it; the table shows the attack).
        if attack and view.get("prompt") and not view.get("finished"):
            lines.append(
                f"Attack on the table: **{cards_text(attack['cards'])}** "
                f"(strength {attack['strength']})."
            )
        return lines
