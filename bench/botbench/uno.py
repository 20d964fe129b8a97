"""UNO bot strength: round and game win rates, points per round, decision times.

Targets (issue "Bots worth playing against", on this machine, against Basic):
- 2 players: Normal wins at least 60% of rounds and 75% of games to 500 against Basic;
- 4 players, one Normal among three Basic: Normal wins at least 35% of rounds (a Basic seat's
  share is 25%);
- Hard beats Normal in at least 55% of 2-player games to 500;
- decision time: Normal p99 under 5 ms, Hard p99 under 300 ms.

Baselines: **Random** plays a uniformly random legal action (a random valid choice for a
discard); **Basic**, a plausible casual player, plays a random playable card (never draws while
it can play, plays a playable card it drew), calls UNO with its next-to-last card, picks a
random colour, accepts every Wild Draw Four (and every stacked draw), never catches, discards at
random. The harness lets any seat with a legal action move when several may (an open UNO
window, jump-ins), so a seat whose only legal action is a catch must take it: "never catches"
holds whenever Basic has anything else to do. Measured with default options (games to 500,
standard scoring); seats rotated, seeds fixed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.botbench.common import Seat, level, mean_ci, play, rate, rotations, timing
from engine import Action, Game

Policy = Callable[[dict[str, Any], list[Action], random.Random], str]


# -- baselines -------------------------------------------------------------------------------
def random_uno(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
    """Random: any legal action, uniformly; a discard picks random cards."""
    action = rng.choice(actions)
    if action.pick is not None:
        chosen = rng.sample(action.pick.options, action.pick.min)
        return f"{action.id}:{'.'.join(chosen)}"
    return action.id


def basic(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
    """Basic: a random playable card, UNO with the next-to-last card, random colour, accepts."""
    ids = {a.id for a in actions}
    if "uno" in ids:
        return "uno"
    own = [a for a in actions if not a.id.startswith("catch:")]
    if not own:
        return actions[0].id  # only a catch is offered and a seat that moves must act
    for a in own:
        if a.pick is not None:
            return random_uno(view, [a], rng)
    if "accept" in ids:
        return "accept"
    plays = [a.id for a in own if a.id.startswith("play:")]
    if plays:
        cards = sorted({p.split(":")[1] for p in plays})
        card = rng.choice(cards)
        play_id = rng.choice([p for p in plays if p.split(":")[1] == card])
        twin = "play+uno:" + play_id[len("play:") :]
        return twin if twin in ids else play_id
    return rng.choice(own).id  # draw, or a random colour for a first Wild


SEATS = {
    "random": Seat("random", random_uno),
    "basic": Seat("basic", basic),
    "normal": Seat("normal", level("uno", "normal")),
    "hard": Seat("hard", level("uno", "hard")),
}


# -- measuring -------------------------------------------------------------------------------
@dataclass
class Tally:
    """One level's results over a series of games against one opponent line-up."""

    games: int = 0
    wins: int = 0
    rounds: int = 0
    round_wins: int = 0
    points: list[float] = field(default_factory=list)  # the level's points per round, per game
    other_points: list[float] = field(default_factory=list)  # per opponent seat
    times: list[float] = field(default_factory=list)


class RoundWinners:
    """Who won each round of a game, read from the public view as the game goes."""

    def __init__(self) -> None:
        self.winners: dict[int, str] = {}

    def note(self, game: Game, player: str, action: str) -> None:
        last = game.view()["last_round"]
        if last is not None:
            self.winners[last["round"]] = last["winner"]


def series(
    kind_seats: list[Seat], label: str, games: int, seed: int, options: dict[str, Any]
) -> Tally:
    """``games`` games with the seats rotated; results for the seat labelled ``label``."""
    tally = Tally()
    for i, seats in enumerate(rotations(kind_seats, games)):
        rounds_seen = RoundWinners()
        played = play("uno", seats, seed + i, options=options, on_move=rounds_seen.note)
        game = played.game
        rounds_seen.note(game, "", "")
        winners = rounds_seen.winners
        mine = next(p for p in played.players if played.labels[p] == label)
        rounds = len(winners)
        tally.games += 1
        tally.wins += mine in game.winners
        tally.rounds += rounds
        tally.round_wins += sum(1 for w in winners.values() if w == mine)
        tally.points.append(game.scores[mine] / rounds)
        tally.other_points += [
            game.scores[p] / rounds for p in played.players if played.labels[p] != label
        ]
        tally.times += played.times.get(label, [])
    return tally


def row(label: str, against: str, tally: Tally) -> str:
    pts, lo, hi = mean_ci(tally.points)
    other = mean_ci(tally.other_points)[0]
    return (
        f"| {label} | {against} | {rate(tally.wins, tally.games)} "
        f"| {rate(tally.round_wins, tally.rounds)} | {pts:.1f} [{lo:.1f}, {hi:.1f}] "
        f"| {other:.1f} |"
    )


HEADER = (
    "| level | against | games won (95% CI) | rounds won (95% CI) | points/round (95% CI) "
    "| opponent's points/round |\n|---|---|---|---|---|---|"
)


def run(quick: bool, seed: int, hard_games: int | None = None) -> None:
    options: dict[str, Any] = {}  # default options: games to 500, standard scoring
    normal_games = 60 if quick else 2000
    hard_games = hard_games or (4 if quick else 200)
    times: dict[str, list[float]] = {"normal": [], "hard": []}
    print("2 players, games to 500 (seats alternate):\n")
    print(HEADER)
    plan = [
        ("normal", "random", normal_games),
        ("normal", "basic", normal_games),
        ("hard", "random", hard_games),
        ("hard", "basic", hard_games),
        ("hard", "normal", hard_games),
    ]
    for lvl, against, games in plan:
        tally = series([SEATS[lvl], SEATS[against]], lvl, games, seed, options)
        times[lvl] += tally.times
        print(row(lvl.capitalize(), against.capitalize(), tally), flush=True)
    print("\n4 players, one bot among three Basic seats (rotated through every seat):\n")
    print(HEADER.replace("opponent's", "a Basic seat's"))
    for lvl, games in (("normal", normal_games), ("hard", max(4, hard_games // 4))):
        seats = [SEATS[lvl], SEATS["basic"], SEATS["basic"], SEATS["basic"]]
        tally = series(seats, lvl, games, seed, options)
        times[lvl] += tally.times
        print(row(lvl.capitalize(), "3 x Basic", tally), flush=True)
    print("\nDecision time (every decision of the level in the games above):\n")
    print("| level | decisions | time |\n|---|---|---|")
    for lvl in ("normal", "hard"):
        print(f"| {lvl.capitalize()} | {len(times[lvl])} | {timing(times[lvl])} |")
