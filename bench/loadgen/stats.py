"""Percentiles, REST calls by route, and the errors a run shows (fake's log, bot's log)."""

from __future__ import annotations

import bisect
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from tests.fakediscord import FakeDiscord

# The bot's generic apology: the one English text matched (there is no code to match on).
WENT_WRONG = "went wrong"
_SNOWFLAKE = re.compile(r"\d{6,}")


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (q in 0..100); nan for no values."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(xs) - 1)
    return xs[low] + (xs[high] - xs[low]) * (pos - low)


def ratio_interval(
    a: Sequence[float],
    b: Sequence[float],
    q: float,
    *,
    rounds: int = 1000,
    level: float = 0.9,
    seed: int = 0,
) -> tuple[float, float]:
    """A bootstrap interval for ``percentile(a, q) / percentile(b, q)``: each bot's clicks
    resampled ``rounds`` times. A p99 rests on a run's ten slowest clicks, so this says how
    much of a difference between two runs' ratios is only which clicks happened to be slow
    (not the machine drifting between runs, which it cannot see). nan for no values."""
    if not a or not b:
        return float("nan"), float("nan")
    rng = random.Random(seed)
    ratios = []
    for _ in range(rounds):
        floor = percentile(rng.choices(b, k=len(b)), q)
        if floor > 0:
            ratios.append(percentile(rng.choices(a, k=len(a)), q) / floor)
    tail = (1 - level) / 2 * 100
    return percentile(ratios, tail), percentile(ratios, 100 - tail)


def ms(seconds: float) -> str:
    if seconds != seconds:  # nan
        return "–"
    return f"{seconds * 1000:.1f}"


def ratio(a: float, b: float, digits: int = 1) -> str:
    if a != a or b != b or b <= 0:
        return "–"
    return f"{a / b:.{digits}f}x"


def route_of(method: str, path: str, fake: FakeDiscord) -> str:
    """A REST call as a route name; channel messages split into guild channel and DM."""
    parts = path.strip("/").split("/")
    if parts[0] == "interactions":
        return "answer (interaction callback)"
    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        try:
            channel = fake.channels.get(int(parts[1]))
        except ValueError:
            channel = None
        where = "DM" if channel is not None and channel.type == 1 else "channel"
        if len(parts) == 3:
            return f"{method} {where} message (new)"
        if method == "PATCH":
            return "PATCH channel message (table edit)" if where == "channel" else "PATCH DM"
        return f"{method} {where} message"
    if parts[:3] == ["users", "@me", "channels"]:
        return "POST open DM channel"
    if parts[0] == "webhooks":
        suffix = "/messages/…" if len(parts) > 3 else ""
        return f"{method} webhook{suffix} (follow-up)"
    return f"{method} {_SNOWFLAKE.sub('{id}', path)}"


def rest_routes(
    requests: Iterable[tuple[str, str, int]], fake: FakeDiscord
) -> tuple[Counter[str], Counter[str]]:
    """(calls by route, error answers by 'status route')."""
    calls: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for method, path, status in requests:
        route = route_of(method, path, fake)
        calls[route] += 1
        if status >= 400:
            errors[f"{status} {route}"] += 1
    return calls, errors


POSTS = ("POST channel message (new)", "DELETE channel message")  # reminders, announcements


def rest_by_move_route(
    requests: Sequence[tuple[str, str, int]],
    times: Sequence[float],
    moves: Iterable[tuple[int, float, str]],
    slot_of: Callable[[int], int | None],
    fake: FakeDiscord,
) -> dict[str, Counter[str]]:
    """Calls on channel and DM messages, each charged to the last applied move of its game
    before it: per route of that move, {"moves", "edits", "posts", "dm"} ("posts": new channel
    messages and deletes, i.e. reminders and announcements; "edits": tables and DMs, of which
    "dm" the DMs).

    `moves` are (slot, sent_at, route); `slot_of(channel_id)` is the slot a channel (the
    game's channel, or a player's DM channel) belongs to. Calls with no earlier move of their
    game in the window are left out."""
    per_slot: dict[int, list[tuple[float, str]]] = {}
    out: dict[str, Counter[str]] = {}
    for slot, sent_at, route in moves:
        per_slot.setdefault(slot, []).append((sent_at, route))
        out.setdefault(route, Counter())["moves"] += 1
    for found in per_slot.values():
        found.sort()
    for (method, path, _status), at in zip(requests, times, strict=True):
        route = route_of(method, path, fake)
        parts = path.strip("/").split("/")
        if route == "answer (interaction callback)" or parts[0] != "channels":
            continue
        try:
            owner = slot_of(int(parts[1]))
        except ValueError:
            continue
        if owner is None or owner not in per_slot:
            continue
        found = per_slot[owner]
        i = bisect.bisect_right(found, (at, "\uffff")) - 1
        if i < 0:
            continue
        counts = out[found[i][1]]
        counts["posts" if route in POSTS else "edits"] += 1
        if route == "PATCH DM":
            counts["dm"] += 1
    return out


def tracebacks(log_text: str) -> Counter[str]:
    """Exceptions in a Python log, by their final line ('Error: message', snowflakes elided)."""
    found: Counter[str] = Counter()
    lines = log_text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("Traceback (most recent call last)"):
            continue
        for later in lines[i + 1 :]:
            if later and not later.startswith((" ", "\t")):
                if later.startswith(("Traceback", "The above exception", "During handling")):
                    break
                found[_SNOWFLAKE.sub("…", later)[:160]] += 1
                break
    return found


def went_wrong(fake: FakeDiscord, after_message_id: int) -> int:
    """Messages created since `after_message_id` that show the bot's apology."""
    return sum(
        1
        for message_id, message in fake.messages.items()
        if message_id > after_message_id and WENT_WRONG in message.text.lower()
    )
