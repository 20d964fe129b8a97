"""Item Collection Game on Discord: negotiation on a clock, public claims, face-down cards.

The table reads the public view only: claims are public, face-down cards are not (only
"placed"), and the last reveal shows the four cards with the combination that scored.
High/Low and Ready are public buttons (everybody can see who may set the mode and who is
not ready yet); a claim, a face-down card and the starting player's swap are made in the
player's private picker.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.render.kinds import Renderer
from cogs.render.spec import clip
from cogs.render.text import humanize
from engine.cards import RANK_NAMES, SUIT_SYMBOLS, suit
from engine.cards import label as card_label
from engine.games.itemcollection import WIN_SCORE

NEGOTIATION_SECONDS = 120  # long enough to talk it over, short enough not to stall a table
MODES = {"high": "⬆️ High", "low": "⬇️ Low"}


def negotiation_clock(view: dict[str, Any]) -> tuple[str, int] | None:
    """Negotiation ends when everyone is ready or its own clock runs out (not a turn timer:
    talking it over is nobody's fault, so nobody gets a strike)."""
    if view.get("finished") or view.get("phase") != "negotiation":
        return None
    # One clock per round's negotiation: Ready presses keep it, the next round restarts it.
    return f"negotiation:{view['round']}", NEGOTIATION_SECONDS


def negotiation_over(game: Any) -> list[tuple[str, str]]:
    """When the negotiation clock runs out, everyone not ready is made ready."""
    view = game.view(None)
    if view.get("finished") or view.get("phase") != "negotiation":
        return []
    return [(p, "ready") for p in view["actors"] if p not in view["ready"]]


def rank_name(rank: str | None) -> str:
    return "no claim" if rank is None else RANK_NAMES.get(rank, rank)


def claim_text(rank: str | None) -> str:
    """``claims a 7``, ``claims an Ace``, ``makes no claim``."""
    if rank is None:
        return "makes no claim"
    return f"claims {'an' if rank in ('A', '8') else 'a'} {rank_name(rank)}"


class ItemCollectionRenderer(Renderer):
    color = 0x2E8B57
    emoji = "🎁"

    # -- words -------------------------------------------------------------------------
    def action_label(self, action_id: str, label: str, names: Mapping[str, str]) -> str:
        verb, _, arg = action_id.partition(":")
        if verb in MODES:
            return f"{MODES[verb]} card"
        if verb == "ready":
            return "✅ Ready"
        if verb == "claim":
            return "🙊 No claim" if arg == "none" else f"📢 Claim {rank_name(arg)}"
        if verb == "place":
            return f"🂠 Place {card_label(arg)} face down"
        if verb == "swap":
            return f"🔁 Swap for {card_label(arg)}"
        if verb == "keep":
            return "👍 Keep my card"
        return humanize(label, names)

    def explain(
        self, view: dict[str, Any], player: str, action_id: str, names: Mapping[str, str]
    ) -> str | None:
        negotiating = view.get("phase") == "negotiation"
        if action_id in ("high", "low"):
            if not negotiating:
                return "High or Low is chosen during the negotiation, which is over."
            if view.get("mode"):
                return f"The mode is already set to {view['mode'].capitalize()} this round."
            starter = view.get("starting", "")
            if player == starter and player in view.get("ready", []):
                return "You pressed Ready first, which gave up the choice: the joker face up stays."
            return f"Only {names.get(starter, starter)} chooses High or Low this round."
        if action_id == "ready":
            if not negotiating:
                return "The negotiation is over: it's time to declare."
            if player in view.get("ready", []):
                return "You're already ready."
        return super().explain(view, player, action_id, names)

    def is_table_action(self, action_id: str) -> bool:
        # Everybody may see who sets the mode and who is not ready yet. Claims, face-down
        # cards and the swap are chosen in the private picker (a card id names a card).
        return action_id in ("high", "low", "ready")

    def play_button(self) -> str:
        return "My move"

    def moves_in_dm(self, view: dict[str, Any], reader: str) -> bool:
        # High/Low and Ready are the table's: the talk is in the channel.
        return view.get("phase") != "negotiation"

    def round_of(self, view: dict[str, Any]) -> int | None:
        # Private notes start afresh each round ("You place Q♣ face down." is last round's).
        return int(view.get("round") or 0)

    def begins_round(self, public: str) -> bool:
        # The round's last move (the swap or keep) ends in the reveal: its own note ("You take
        # back … and place … face down.") is last round's; the card drawn after it is this one's.
        return public.startswith("Reveal (")

    # -- the public table --------------------------------------------------------------
    def _who(self, view: dict[str, Any], player: str, names: Mapping[str, str]) -> str:
        return f"{SUIT_SYMBOLS[view['suits'][player]]} **{names.get(player, player)}**"

    def table_lines(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        phase = view.get("phase")
        lines: list[str] = []
        if phase != "over":
            starter = self._who(view, view["starting"], names)
            if view.get("mode"):
                mode = f"{MODES[view['mode']]} (with no combination, that card scores)"
            else:
                mode = f"not set yet — the face-up joker says {MODES[view['joker']]}"
            lines += [f"**Round {view['round']}** · {starter} starts", f"Mode: {mode}"]
        if phase == "negotiation":
            ready = set(view.get("ready", []))
            marks = " · ".join(
                f"{'✅' if p in ready else '⏳'} {names.get(p, p)}" for p in view["order"]
            )
            lines += [
                "🗣️ **Negotiation:** talk it over in this channel, then press **Ready**. "
                "It ends when everyone is ready or the time runs out.",
                f"Ready: {marks}",
            ]
        elif phase in ("declaration", "swap"):
            lines += ["", "**Declarations** (in order; face-down cards stay hidden):"]
            lines += self._declarations(view, names)
            if phase == "swap":
                lines.append(
                    f"🔁 {self._who(view, view['starting'], names)} may exchange their "
                    "face-down card once, or keep it."
                )
        reveal = self._reveal(view, names)
        if reveal:
            lines += ["", *reveal]
        return lines

    def _declarations(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        made = {d["player"]: d for d in view.get("declarations", [])}
        rows = []
        for i, p in enumerate(view["order"], 1):
            d = made.get(p)
            if d is None:
                state = "⏳ to claim" if p == view.get("current") else "…"
            else:
                claim = claim_text(d["claim"])
                placed = "🂠 card face down" if d["placed"] else "⏳ choosing a card"
                state = f"{claim} · {placed}"
            rows.append(f"{i}. {self._who(view, p, names)} — {state}")
        return rows

    def _reveal(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        last = view.get("revealed")
        if not last:
            return []
        cards = " · ".join(
            f"{names.get(p, p)} **{card_label(last['cards'][p])}** "
            f"({'claimed ' + rank_name(last['claims'][p]) if last['claims'][p] else 'no claim'})"
            for p in last["order"]
        )
        scorers = ", ".join(names.get(p, p) for p in last["scorers"])
        swapped = " The starting player exchanged their card." if last.get("swapped") else ""
        return [
            f"**Round {last['round']} reveal** ({MODES[last['mode']]}): {cards}",
            f"→ **{last['row'].capitalize()}**: {scorers} "
            f"score{'s' if len(last['scorers']) == 1 else ''}.{swapped}",
        ]

    def players_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        actors = set(view.get("actors", []))
        lines = []
        for p in view["players"]:
            marker = "▶" if p in actors else "•"
            scored = view["scored"][p]
            row = " ".join(card_label(c) for c in scored) if scored else "—"
            lines.append(
                f"{marker} {self._who(view, p, names)} — scored {len(scored)}/{WIN_SCORE}: {row}"
                f" · hand {view['hand_sizes'][p]} · deck {view['deck_sizes'][p]}"
            )
        return clip("\n".join(lines), 1024)

    def how_won(self, view: dict[str, Any], names: Mapping[str, str], reason: str) -> str:
        return f"by scoring {WIN_SCORE} cards"

    def result_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        winners = view.get("winners", [])
        who = " and ".join(f"**{names.get(w, w)}**" for w in winners)
        head = f"🏆 {who} {'wins' if len(winners) == 1 else 'win together'}!"
        rows = [
            f"{self._who(view, p, names)}: {len(view['scored'][p])} — "
            + (" ".join(card_label(c) for c in view["scored"][p]) or "nothing scored")
            for p in sorted(view["players"], key=lambda p: -len(view["scored"][p]))
        ]
        return clip("\n".join([head, *rows]), 1024)

    # -- the private hand -----------------------------------------------------------------
    def own_prompt(self, view: dict[str, Any], reader: str) -> str | None:
        if view.get("phase") != "negotiation" or reader not in view.get("actors", []):
            return None
        # The starter's choice is theirs alone: gone once they set the mode or press Ready.
        if reader == view.get("starting") and view.get("mode") is None:
            return "set High or Low, or press Ready when the talk is done"
        return "press Ready when the talk is done"

    def private_lines(
        self, view: dict[str, Any], names: Mapping[str, str], reader: str | None = None
    ) -> list[str]:
        hand = view.get("hand", [])
        lines = []
        if hand:
            lines.append(f"Your suit: {SUIT_SYMBOLS[suit(hand[0])]}")
        placed = view.get("placed")
        # Face down only until the reveal: once the game is over (the engine keeps the last
        # round's declarations then) the card has been turned up for everyone.
        if placed and view.get("phase") in ("declaration", "swap"):
            lines.append(f"Your face-down card: **{card_label(placed)}** (only you know it).")
        return lines
