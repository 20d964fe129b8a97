"""What every game's bots provide, and small helpers the policies share."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engine.core import Action

T = TypeVar("T")

LEVELS = ("normal", "hard")  # the levels a host can choose, weakest first


class Rand(Protocol):
    """The part of ``random.Random`` a policy may use (the engine never imports ``random``)."""

    def random(self) -> float: ...

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...


# (view of the seat, its legal actions, rng) -> a full action id (picks included)
Policy = Callable[[dict[str, Any], list[Action], Rand], str]
# (view of the seat, the moves it may make out of turn) -> those a bot would make
Optional = Callable[[dict[str, Any], list[Action]], list[Action]]


def every_move(view: dict[str, Any], actions: list[Action]) -> list[Action]:
    return actions


@dataclass(frozen=True, slots=True)
class GameBots:
    """One game's bot levels, and one sentence per level for the lobby and /rules.
    ``optional``: of the moves a seat may make when the game does not wait for it (an UNO
    catch or jump-in), those worth making; the others it lets pass."""

    normal: Policy
    hard: Policy
    about: dict[str, str]
    optional: Optional = every_move


def pick_id(action: Action, chosen: Sequence[str]) -> str:
    """The id that applies a Pick action with ``chosen`` (``block:5H.6H``)."""
    return f"{action.id}:{'.'.join(chosen)}"
