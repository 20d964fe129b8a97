"""A War of Suits on Discord: the battlefield with its totals, who has chosen, the piles.

The table only ever reads the public view: the battlefield holds revealed cards only, and
``chosen`` says who has chosen, never what. The choices themselves (``choose:<card>``, a tie's
``ace:<card>`` / ``reinforce``) live in each player's private picker; the one public button is
``accept``, which is legal exactly when the public ``window`` names the player.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cogs.render.kinds import Renderer
from cogs.render.spec import Embed, clip
from cogs.render.text import humanize, plural
from engine.cards import RED_SUITS, suit, value
from engine.cards import label as card_label

SIDES = {"red": ("🟥", "Red", "♦♥"), "black": ("⬛", "Black", "♣♠")}


def cards_sum(cards: list[str]) -> str:
    """``7♥ + 7♦ = 14``; a single card just ``9♣ = 9``."""
    return f"{' + '.join(card_label(c) for c in cards)} = {sum(value(c) for c in cards)}"


# One head-to-head deck draw as the engine logs it: "Still tied: Red (ann) adds 4♦, Black (bea)
# adds 4♣ from the deck: 14 against 14." (a side whose deck is empty adds nothing).
_STILL_TIED = re.compile(r"Still tied: (?P<adds>.+) from the deck: (?P<score>\d+ against \d+)\.")
_ADDS = re.compile(r"(?P<who>(?:Red|Black) \(.+?\)) adds (?P<card>\S+?)(?:, |$)")


def _draws(line: str) -> tuple[list[tuple[str, str]], str] | None:
    """A deck-draw line's (side, card) pairs and the totals after it; None: another line."""
    step = _STILL_TIED.fullmatch(line)
    if step is None:
        return None
    adds = [(m["who"], m["card"]) for m in _ADDS.finditer(step["adds"])]
    return (adds, step["score"]) if adds else None


def fold_draws(log: list[str]) -> list[str]:
    """The log with each run of a head to head's "Still tied" deck draws told in one line, so
    that Recent holds a whole battle's steps: every card each side added, in order, the totals
    it stayed tied at and the totals after the last draw."""
    folded: list[str] = []
    i = 0
    while i < len(log):
        run: list[tuple[list[tuple[str, str]], str]] = []
        while i + len(run) < len(log) and (step := _draws(log[i + len(run)])) is not None:
            run.append(step)
        if len(run) < 2:
            folded.append(log[i])
            i += 1
            continue
        added: dict[str, list[str]] = {}
        for adds, _ in run:
            for who, card in adds:
                added.setdefault(who, []).append(card)
        sides = " and ".join(f"{who} adds {', '.join(cards)}" for who, cards in added.items())
        ties = [score.split(" against ")[0] for _, score in run[:-1]]
        tied_at = f"{', '.join(ties[:-1])} and {ties[-1]}" if len(ties) > 1 else ties[0]
        folded.append(
            f"Still tied: {len(run)} draws from the deck: {sides} "
            f"(tied again at {tied_at}): {run[-1][1]}."
        )
        i += len(run)
    return folded


class WarOfSuitsRenderer(Renderer):
    color = 0xB22222
    emoji = "⚔️"
    recent_lines = 10  # a head to head logs several steps in one move: show them all

    def turn_of(self, view: dict[str, Any]) -> int | None:
        return int(view.get("battle") or 0)  # each battle's choices are a turn of their own

    # -- words -------------------------------------------------------------------------
    def action_label(self, action_id: str, label: str, names: Mapping[str, str]) -> str:
        if action_id == "accept":
            return "🏳️ Accept the loss"
        if action_id == "reinforce":
            return "🛡️ Reinforce (head to head)"
        verb = action_id.split(":", 1)[0]
        icon = {"choose": "🂠", "double": "✌️", "ace": "🅰️"}.get(verb)
        text = humanize(label, names)
        return f"{icon} {text}" if icon else text

    def is_table_action(self, action_id: str) -> bool:
        # Accept is legal exactly for the side named in the public window, so a public
        # button reveals nothing. Doubles and Aces would show the hand, and a tie's
        # Ace-or-reinforce is a secret simultaneous choice: those stay in the picker.
        return action_id == "accept"

    def play_button(self) -> str:
        return "Play a card"

    # -- the public table --------------------------------------------------------------
    def table_embed(
        self, view: dict[str, Any], names: Mapping[str, str], log: list[str], game_id: int
    ) -> Embed:
        # A long head to head draws many times in one move: one line for its draws keeps the
        # reveal, the tie and the head to head in Recent too.
        return super().table_embed(view, names, fold_draws(log), game_id)

    def _side(self, view: dict[str, Any], player: str, names: Mapping[str, str]) -> str:
        mark, side, _ = SIDES[view["sides"][player]]
        return f"{mark} {side} · **{names.get(player, player)}**"

    def table_lines(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        phase = view.get("phase")
        if phase == "over":
            return self._last_battle(view, names)
        lines = [f"**Battle {view['battle']}**"]
        chosen = set(view.get("chosen", []))
        actors = set(view.get("actors", []))
        for p in view["players"]:
            field = view["battlefield"].get(p, [])
            parts = [self._side(view, p, names) + ":"]
            if field:
                parts.append(cards_sum(field))
                if view.get("doubled", {}).get(p):
                    parts.append("(doubled)")
                if view.get("ace") == p:
                    parts.append("— 🅰️ its Ace claims the battle")
            if phase in ("choose", "tie"):
                done = "chosen a card" if phase == "choose" else "decided"
                if p in view.get("forced", []):
                    parts.append("🛡️ reinforces (no Ace left)")
                elif p in chosen:
                    parts.append(f"✅ has {done} (hidden)")
                elif p in actors:
                    parts.append("⏳ choosing…" if phase == "choose" else "⏳ Ace or reinforce?")
            elif p in view.get("window", []):
                parts.append("⏳ its move")
            lines.append(" ".join(parts))
        if phase == "choose":
            lines.append("Both sides choose a card in secret; they are shown together.")
        elif phase == "tie":
            lines.append(
                "Tie! Each side decides in secret: stop the fight with an Ace, or reinforce "
                "(both reinforce: head to head, every card in hand joins the fight)."
            )
        last = self._last_battle(view, names)
        return [*lines, "", *last] if last else lines

    def _last_battle(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        last = view.get("last_battle")
        if not last:
            return []
        fields = last["battlefield"]
        sides = " vs ".join(
            f"{SIDES[view['sides'][p]][0]} {cards_sum(fields[p])}" if fields[p] else "—"
            for p in view["players"]
        )
        winner = last.get("winner")
        if winner is None:
            result = "no winner: each side took back its own cards"
        else:
            taken = sum(len(cards) for cards in fields.values())
            result = f"{self._side(view, winner, names)} won {plural(taken, 'card')}"
        return [f"Last battle: {sides} — {result}"]

    def players_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        actors = set(view.get("actors", []))
        lines = []
        for p in view["players"]:
            marker = "▶" if p in actors else "•"
            lines.append(
                f"{marker} {self._side(view, p, names)} — "
                f"hand {view['hand_sizes'][p]} · deck {view['deck_sizes'][p]} · "
                f"victory pile {plural(view['victory_sizes'][p], 'card')} "
                f"(**{view['scores'].get(p, 0)} pts**)"
            )
        return "\n".join(lines)

    def how_won(self, view: dict[str, Any], names: Mapping[str, str], reason: str) -> str:
        if reason == "draw":
            return "with equal points in both victory piles"
        return "with the most points in its victory pile"

    def result_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        winners = view.get("winners", [])
        if winners:
            head = f"🏆 {self._side(view, winners[0], names)} wins!"
        else:
            head = "🤝 Equal scores: the game is a draw."
        rows = [
            f"{self._side(view, p, names)}: {view['scores'].get(p, 0)} pts "
            f"({plural(view['victory_sizes'][p], 'card')} won)"
            for p in view["players"]
        ]
        return clip("\n".join([head, *rows]), 1024)

    # -- the private hand -----------------------------------------------------------------
    def own_prompt(self, view: dict[str, Any], reader: str) -> str | None:
        phase = view.get("phase")
        if phase not in ("choose", "tie") or reader not in view.get("actors", []):
            return None
        what = "choose a card in secret" if phase == "choose" else "play an Ace or reinforce"
        # A side the rules make reinforce is known when the phase begins: it stays true.
        forced = [p for p in view.get("forced", []) if p != reader]
        if forced:
            what += f"; {SIDES[view['sides'][forced[0]]][1]} reinforces (no Ace left)"
        return what

    def private_lines(
        self, view: dict[str, Any], names: Mapping[str, str], reader: str | None = None
    ) -> list[str]:
        hand = view.get("hand", [])
        lines = []
        if hand:
            mark, side, suits = SIDES["red" if suit(hand[0]) in RED_SUITS else "black"]
            total = sum(value(c) for c in hand)
            lines.append(f"You play {mark} **{side}** ({suits}) · your hand is worth {total}.")
        choice = view.get("choice")
        if view.get("choice_forced"):
            lines.append("You have no Ace left, so you reinforce (decided for you, publicly).")
        elif choice:
            verb, _, card = choice.partition(":")
            what = "reinforce" if verb == "reinforce" else card_label(card)
            lines.append(f"Your secret choice: **{what}** (hidden until both sides have chosen).")
        return lines
