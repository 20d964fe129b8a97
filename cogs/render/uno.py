"""UNO on Discord: coloured card labels, the table, the hand grouped by colour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.render import faces
from cogs.render.kinds import Renderer
from cogs.render.picker import MAX_PICK_SELECTS
from cogs.render.spec import MAX_CONTENT, MAX_SELECT_OPTIONS
from cogs.render.text import humanize, plural

COLOURS = {"R": ("🟥", "Red"), "Y": ("🟨", "Yellow"), "G": ("🟩", "Green"), "B": ("🟦", "Blue")}
VALUES = {"S": "Skip", "R": "Reverse", "D2": "Draw Two"}
WILDS = {"W": "Wild", "W4": "Wild Draw Four", "WS": "Wild Swap Hands"}


def card_name(code: str) -> str:
    """``R7`` -> ``🟥 Red 7``; ``W4`` -> ``🌈 Wild Draw Four``; ``WC4`` -> custom rule 4."""
    if code in WILDS:
        return f"🌈 {WILDS[code]}"
    if code.startswith("WC"):
        return f"🌈 Wild Custom #{code[2:]}" if code[2:] else "🌈 Wild Custom"
    if code and code[0] in COLOURS:
        emoji, colour = COLOURS[code[0]]
        value = code[1:]
        return f"{emoji} {colour} {VALUES.get(value, value)}"
    return code


def colour_name(code: str) -> str:
    emoji, name = COLOURS.get(code, ("", code))
    return f"{emoji} {name}".strip()


class UnoRenderer(Renderer):
    color = 0xED1C24
    emoji = "🎴"

    def turn_of(self, view: dict[str, Any]) -> int | None:
        # A card played ends its player's turn: awaited again at once (a Skip, Reverse or
        # Draw Two with two players, a new round they begin), it is a new turn. A draw is
        # not (play the card drawn or keep it), nor the pile reshuffled into the deck. While
        # several discard at once: unknown (the clocks keep the number from before).
        if view.get("discarding"):
            return None
        return int(view.get("round") or 0) * 100_000 + int(view.get("cards_played") or 0)

    def card(self, code: str) -> str:
        return card_name(code)

    def action_card(self, action_id: str) -> tuple[str, str | None] | None:
        parts = action_id.split(":")
        if parts[0] in ("play", "play+uno") and len(parts) >= 2:
            colour = parts[2] if len(parts) >= 3 and parts[2] in COLOURS else None
            return parts[1], colour
        return None

    def thumbnail(self, view: dict[str, Any]) -> tuple[str, str | None] | None:
        top = view.get("top")
        return (top, view.get("color")) if top else None

    def hand_text(self, hand: list[str]) -> str:
        if not hand:
            return "*(no cards)*"
        by_colour: dict[str, list[str]] = {}
        for code in hand:
            key = code[0] if code[0] in COLOURS and not code.startswith("W") else "W"
            by_colour.setdefault(key, []).append(code)
        lines = []
        for key in ("R", "Y", "G", "B", "W"):
            if key in by_colour:
                emoji = COLOURS[key][0] if key in COLOURS else "🌈"
                shown = ", ".join(card_name(c).split(" ", 1)[1] for c in by_colour[key])
                # The faces, then the words (for screen readers and search).
                pictures = faces.row(by_colour[key])
                lines.append(f"{pictures} {emoji} {shown}" if pictures else f"{emoji} {shown}")
        return "\n".join(lines)

    def segment(self, segment: str, names: Mapping[str, str]) -> str:
        if segment in names:
            return names[segment]
        if segment in COLOURS:
            return colour_name(segment)
        if segment.startswith("WC"):
            return card_name(segment)
        # Pick options name the k-th copy of a card "R5_2".
        return card_name(segment.split("_", 1)[0])

    def pick_groups(self, action_id: str, options: list[str]) -> list[tuple[str, list[str]]]:
        # A discard (custom rules 5 and 6) from a hand too big for one select: the engine
        # then takes it in parts (``engine.games.uno.DISCARD_AT_ONCE``), so each select is a
        # choice of its own: the colours of the sorted hand, packed while they fit in one.
        if action_id != "discard" or len(options) <= MAX_SELECT_OPTIONS:
            return []
        blocks: list[tuple[str, list[str]]] = []
        for token in options:
            key = _colour_key(token.split("_", 1)[0])
            if blocks and blocks[-1][0] == key:
                blocks[-1][1].append(token)
            else:
                blocks.append((key, [token]))
        packed: list[tuple[list[str], list[str]]] = []  # (colour keys, tokens)
        for key, tokens in blocks:
            if packed and len(packed[-1][1]) + len(tokens) <= MAX_SELECT_OPTIONS:
                packed[-1][0].append(key)
                packed[-1][1].extend(tokens)
            else:
                packed.append(([key], list(tokens)))
        if len(packed) > MAX_PICK_SELECTS or any(len(t) > MAX_SELECT_OPTIONS for _, t in packed):
            # Never with UNO's decks (25 cards of a colour, 12 wilds) unless a hand holds
            # most of the deck: plain runs of the sorted hand, as many as fit.
            step = MAX_SELECT_OPTIONS
            runs = [options[i : i + step] for i in range(0, len(options), step)]
            return [
                (f"Cards {i * step + 1}-{i * step + len(run)}: discard some", run)
                for i, run in enumerate(runs)
            ]
        return [
            (
                f"{', '.join(_colour_title(k) for k in keys)}: discard some ({len(tokens)} cards)",
                tokens,
            )
            for keys, tokens in packed
        ]

    def round_of(self, view: dict[str, Any]) -> int | None:
        return int(view.get("round") or 0)

    def begins_round(self, public: str) -> bool:
        return public.startswith("Round ") and " deals" in public

    def round_summary(self, view: dict[str, Any], names: Mapping[str, str]) -> str | None:
        last = view.get("last_round")
        if not last:
            return None
        winner = last["winner"]
        who = names.get(winner, winner)
        how = (
            "nobody could play or draw, and had the fewest points"
            if last.get("deadlock")
            else ("went out")
        )
        head = f"🏁 **Round {last['round']}**: {who} {how}."
        hands = last.get("hands", {})
        full: list[str] = []
        short: list[str] = []
        for p in view["players"]:
            if p == winner:
                continue
            held = hands.get(p, [])
            cards = ", ".join(card_name(c) for c in held) or "no cards"
            points = plural(last["points"].get(p, 0), "point")
            full.append(f"• {names.get(p, p)}: {cards} — {points}")
            short.append(f"• {names.get(p, p)}: {plural(len(held), 'card')} — {points}")
        tail: list[str] = []
        if not view.get("finished"):  # else the end post follows, with the final scores
            scores = view.get("scores", {})
            ranked = sorted(view["players"], key=lambda p: -scores.get(p, 0))
            if view.get("scoring") == "lowest":
                ranked.reverse()
            tail.append(
                "Scores: "
                + " · ".join(f"{names.get(p, p)} {scores.get(p, 0)}" for p in ranked)
                + f" ({goal(view)})"
            )
            tail.append(f"Round {view.get('round')} starts now.")
        # One message holds MAX_CONTENT characters: the hands give way to the scores.
        budget = MAX_CONTENT - len("\n".join([head, *tail])) - 1
        hand_lines = fit_lines(full, short, budget)
        return "\n".join([head, *hand_lines, *tail])[:MAX_CONTENT]

    def group_label(self, prefix: str, names: Mapping[str, str]) -> str:
        label = super().group_label(prefix, names)
        return (
            f"{label} + UNO!"
            if prefix.startswith("play+uno:") and prefix.count(":") == 1
            else label
        )

    def action_label(self, action_id: str, label: str, names: Mapping[str, str]) -> str:
        parts = action_id.split(":")
        verb = parts[0]
        if verb in ("play", "play+uno") and len(parts) >= 2:
            text = card_name(parts[1])
            for part in parts[2:]:
                # A wild's colour, then (Swap Hands, seven-zero's 7) the player to swap with.
                text += (
                    f" → {colour_name(part)}" if part in COLOURS else f" ⇄ {names.get(part, part)}"
                )
            return f"{text} + UNO!" if verb == "play+uno" else text
        if verb == "color" and len(parts) == 2:
            return f"Colour: {colour_name(parts[1])}"
        if verb == "catch" and len(parts) == 2:
            return f"Catch {names.get(parts[1], parts[1])}!"
        fixed = {
            "pass": "Keep it (pass)",
            "uno": "UNO!",
            "challenge": "Challenge the +4",
        }
        # "draw" and "accept" keep the engine's words: "Draw 3 cards (you cannot play)",
        # "Pass (both piles are empty)", "Draw 6 and lose your turn" (stacked draws).
        return (
            fixed.get(verb, humanize(label, names)) if len(parts) == 1 else humanize(label, names)
        )

    def explain(
        self, view: dict[str, Any], player: str, action_id: str, names: Mapping[str, str]
    ) -> str | None:
        window = view.get("uno_window")
        called = view.get("uno_called") or []
        if action_id == "uno":
            if player in called:
                return "You've already called UNO."
            if window and window != player:
                who = names.get(window, window)
                return f"Only {who} can call UNO now — you can catch them if they forget."
            if not window and (view.get("hand_sizes") or {}).get(player) == 1:
                # Pressed as the next move (a jump-in, the next player) landed: the chance
                # to call ended with it, and so did the chance to catch this player. (Whether
                # they called in time is not in the view any more: the words fit either.)
                return "UNO can't be called now: play has moved on."
            return "You call UNO when you play your next-to-last card (there's a button for it)."
        if action_id.startswith("catch:"):
            target = action_id.split(":", 1)[1]
            who = names.get(target, target)
            if target == player and window == player:
                return "You can't catch yourself: press **UNO!** to call it now."
            if target in called:
                return f"{who} called UNO in time: there's nothing to catch."
            # A catch or the next player's move closed the window (the game does not keep
            # which): both are true of "too late".
            return f"Too late to catch {who}: someone caught them first, or play moved on."
        discarding = view.get("discarding") or {}
        if discarding and player not in discarding:
            who = " and ".join(names.get(p, p) for p in list(discarding)[:3])
            return f"It's not your turn: the game is waiting for {who} to discard."
        current = view.get("current")
        if current and current != player and not discarding and not view.get("finished"):
            return f"It's not your turn: the game is waiting for {names.get(current, current)}."
        return super().explain(view, player, action_id, names)

    def table_action_label(
        self, action_id: str, label: str, view: dict[str, Any], names: Mapping[str, str]
    ) -> str:
        if action_id != "draw":
            return self.action_label(action_id, label, names)
        # The engine's "Draw 3 cards (you cannot play)" and "Draw a card" tell whether the
        # player holds a playable card: the table says only what the rules make public.
        if view.get("draw_pile") == 0 and view.get("discard_pile", 0) <= 1:
            return "Pass (both piles are empty)"
        if view.get("draw_three") is not None:
            return "Draw (3 cards if no card fits)"
        return "Draw a card"

    def is_table_action(self, action_id: str) -> bool:
        # Public buttons reveal nothing: everyone can see who may draw, call or catch UNO,
        # challenge a +4 or pick the first colour. "pass" would reveal that a drawn card is
        # playable, so it stays in the player's own picker.
        verb = action_id.split(":", 1)[0]
        return verb in ("draw", "uno", "catch", "challenge", "accept", "color")

    def is_table_only(self, action_id: str) -> bool:
        # Catching is about someone else's hand: the table's Catch button is where it lives.
        return action_id.startswith("catch:")

    def play_button(self) -> str:
        return "Play a card"

    def table_lines(self, view: dict[str, Any], names: Mapping[str, str]) -> list[str]:
        lines = []
        top = view.get("top")
        if top:
            picture = faces.face(top, view.get("color"))
            shown = f"{picture} **{card_name(top)}**" if picture else f"**{card_name(top)}**"
            lines.append(f"Top card: {shown}")
        colour = view.get("color")
        if colour:
            lines.append(f"Colour in play: **{colour_name(colour)}**")
        direction = view.get("direction", 1)
        lines.append("Direction: " + ("↻ clockwise" if direction == 1 else "↺ anticlockwise"))
        piles = (
            f"Draw pile: {view.get('draw_pile', 0)} · Discard pile: {view.get('discard_pile', 0)}"
        )
        lines.append(piles)
        target = view.get("target") or view.get("options", {}).get("target")
        round_no = view.get("round")
        if round_no:
            lines.append(f"Round {round_no}" + (f" · {goal(view)}" if target else ""))
        # The house rules in play, on the table everyone plays from: the lobby that listed
        # them scrolls away, and a player who missed it would learn them by surprise.
        house = [HOUSE_RULE_NAMES.get(r, r) for r in view.get("house_rules") or []]
        if view.get("swap_hands"):
            house.append("a Wild Swap Hands in the deck")
        if house:
            lines.append("House rules: " + " · ".join(house))
        rules = view.get("custom_rules") or {}
        for code, text in rules.items():
            lines.append(f"{card_name(code)}: {text}")
        face_up = view.get("face_up") or {}
        for player, cards in face_up.items():
            shown = ", ".join(card_name(c) for c in cards)
            lines.append(f"Face up ({names.get(player, player)}): {shown}")
        return lines

    def how_won(self, view: dict[str, Any], names: Mapping[str, str], reason: str) -> str:
        target = view.get("target")
        if reason == "lowest score":
            return f"with the lowest total when someone reached {_points(target)}"
        return f"by going out and reaching {_points(target)}"

    def players_text(self, view: dict[str, Any], names: Mapping[str, str]) -> str:
        # Whose move it is: those discarding (custom rule 6), else the current player.
        moving = set(view.get("discarding") or {}) or {view.get("current")}
        sizes = view.get("hand_sizes", {})
        scores = view.get("scores", {})
        called = set(view.get("uno_called", []) or [])
        lines = []
        for p in view["players"]:
            marker = "▶" if p in moving and not view.get("finished") else "•"
            bell = " 🔔 UNO!" if p in called and sizes.get(p) == 1 else ""
            lines.append(
                f"{marker} **{names.get(p, p)}** — {plural(sizes.get(p, 0), 'card')}"
                f" · {scores.get(p, 0)} pts{bell}"
            )
        return "\n".join(lines)


def fit_lines(full: list[str], short: list[str], budget: int) -> list[str]:
    """Lines joined by newlines within ``budget`` characters (each preceded by a newline):
    the longest full lines give way to their short forms until they fit, then lines drop
    from the end for a last line saying how many are left out."""
    lines = list(full)

    def size(rows: list[str]) -> int:
        return sum(len(r) + 1 for r in rows)

    longest = sorted(range(len(lines)), key=lambda i: len(full[i]) - len(short[i]), reverse=True)
    for i in longest:
        if size(lines) <= budget:
            return lines
        lines[i] = short[i]
    if size(lines) <= budget:
        return lines
    while lines:
        lines = lines[:-1]
        note = f"• … and {plural(len(full) - len(lines), 'more hand')}"
        if size([*lines, note]) <= budget:
            return [*lines, note]
    return []


def _colour_key(code: str) -> str:
    """A card's colour in the hand's order (``W`` for the wilds)."""
    return code[0] if code[0] in COLOURS and not code.startswith("W") else "W"


def _colour_title(key: str) -> str:
    return colour_name(key) if key in COLOURS else "🌈 Wild"


HOUSE_RULE_NAMES = {
    "stack_draws": "stacked draws",
    "seven_zero": "seven-zero (7 swaps hands, 0 passes them)",
    "jump_in": "jump-in",
    "draw_until_playable": "draw until playable",
    "forced_play": "forced play of a drawn card",
}


def uno_awaited(game: Any) -> list[str]:
    """Whose turn it is: the current player (or those discarding), not the players who may
    only call UNO, catch or jump in, which are never required."""
    view = game.view(None)
    if view.get("finished"):
        return []
    discarding = list(view.get("discarding") or {})
    return discarding or [view["current"]]


def goal(view: dict[str, Any]) -> str:
    """How the game is won, in a few words."""
    target = view.get("target") or view.get("options", {}).get("target")
    if view.get("scoring") == "lowest":
        return f"ends when someone reaches {_points(target)}, lowest total wins"
    return f"first to {_points(target)}"


def _points(target: Any) -> str:
    return plural(int(target), "point") if isinstance(target, int) else f"{target} points"
