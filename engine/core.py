"""The engine contract every game implements (see docs/ARCHITECTURE in shared/).

Pure rules: standard library only, no I/O, no clock. Randomness comes from ``Rng``,
whose state is part of the saved game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.options import Option, validate_options
from engine.rng import Rng


class IllegalAction(ValueError):
    """A refused action. The message is fit to show the player; nothing changed."""


@dataclass(frozen=True, slots=True)
class Pick:
    """A multi-card choice: the player picks between ``min`` and ``max`` of ``options``."""

    options: list[str]
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player may do now. ``id`` is ASCII, at most 64 characters."""

    id: str
    label: str
    pick: Pick | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, as data (for end posts, stats and ratings).

    ``placings`` ranks every player: a list of places, each a list of the players sharing it
    (winners first). ``reason`` is a short machine word such as ``"went out"``,
    ``"knockout"``, ``"decision"`` or ``"draw"``; each game documents its own.
    """

    winners: list[str]
    placings: list[list[str]]
    reason: str
    scores: dict[str, int]


@dataclass(slots=True)
class Event:
    """Something that happened: public text for the table log, private text per player."""

    public: str
    private: dict[str, str] = field(default_factory=dict)


def rank_by(players: list[str], key: Any) -> list[list[str]]:
    """Group ``players`` into places by ``key`` (lower first); equal keys share a place."""
    places: list[list[str]] = []
    last: Any = object()
    for p in sorted(players, key=key):
        k = key(p)
        if places and k == last:
            places[-1].append(p)
        else:
            places.append([p])
        last = k
    return places


class Game:
    """Base class: registry metadata, option handling, the apply protocol and JSON round trip.

    A subclass implements ``_setup``, ``actors``, ``_legal``, ``_apply``, ``_view``,
    ``_state`` and ``_restore``. ``finished``, ``winners`` and ``scores`` are plain attributes
    the subclass keeps up to date.
    """

    kind: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    summary: ClassVar[str] = ""

    players: list[str]
    config: dict[str, Any]
    rng: Rng
    finished: bool
    winners: list[str]
    scores: dict[str, int]
    reason: str | None

    # -- construction ------------------------------------------------------------------
    def __init__(
        self,
        players: list[str],
        seed: int = 0,
        options: dict[str, Any] | None = None,
        *,
        deck: list[str] | None = None,
    ) -> None:
        players = [str(p) for p in players]
        for p in players:
            # Action ids name players (``catch:<player>``) and must stay ASCII and short.
            if not p or not p.isascii() or len(p) > 50 or any(c in p for c in ":. "):
                raise ValueError(f"Player id {p!r} must be 1-50 ASCII characters without ':.'")
        if not self.min_players <= len(players) <= self.max_players:
            if self.min_players == self.max_players:
                need = f"exactly {self.min_players}"
            else:
                need = f"{self.min_players} to {self.max_players}"
            raise ValueError(f"{self.title} needs {need} players, not {len(players)}.")
        if len(set(players)) != len(players):
            raise ValueError("Each player may take only one seat.")
        self.players = players
        self.config = validate_options(self.title, self.options, options)
        self.rng = Rng(seed)
        self.finished = False
        self.winners = []
        self.scores = {p: 0 for p in players}
        self.reason = None
        self._legal_cache: dict[str, list[Action]] = {}
        # ``deck`` is test support only (engine.testing.stacked): the cards in the order
        # they come off the top. In play it is None and the game shuffles with its RNG.
        self._setup(deck)

    # -- the contract ------------------------------------------------------------------
    def actors(self) -> list[str]:
        raise NotImplementedError

    def legal_actions(self, player: str) -> list[Action]:
        # A fresh list each call: a caller that changes it must not change the game.
        return list(self._legal_now(player))

    def _legal_now(self, player: str) -> list[Action]:
        cached = self._legal_cache.get(player)
        if cached is None:
            if self.finished or player not in self.actors():
                cached = []
            else:
                cached = self._legal(player)
            self._legal_cache[player] = cached
        return cached

    def apply(self, player: str, action_id: str) -> list[Event]:
        if not isinstance(action_id, str) or not isinstance(player, str):
            raise IllegalAction("That move is not available right now.")
        if player not in self.players:
            raise IllegalAction("You are not playing in this game.")
        if self.finished:
            raise IllegalAction("This game is over.")
        if player not in self.actors():
            raise IllegalAction("It is not your turn.")
        legal = self._legal_now(player)
        chosen: list[str] | None = None
        for action in legal:
            if action.id == action_id and action.pick is None:
                break
        else:
            action, chosen = self._match_pick(legal, action_id)
        self._legal_cache.clear()
        return self._apply(player, action, chosen)

    def view(self, player: str | None = None) -> dict[str, Any]:
        if player is not None and player not in self.players:
            player = None
        view: dict[str, Any] = {
            "kind": self.kind,
            "players": list(self.players),
            "actors": [] if self.finished else list(self.actors()),
            "finished": self.finished,
            "winners": list(self.winners),
            "scores": dict(self.scores),
        }
        view.update(self._view(player))
        return view

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (None while it runs)."""
        if not self.finished:
            return None
        return Outcome(
            list(self.winners), self._placings(), self.reason or "finished", dict(self.scores)
        )

    def copy(self) -> Game:
        """An independent copy that continues exactly as this game would (search, trials)."""
        return type(self).from_dict(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        data = {
            "kind": self.kind,
            "players": list(self.players),
            "options": dict(self.config),
            "rng": self.rng.state,
            "finished": self.finished,
            "winners": list(self.winners),
            "scores": dict(self.scores),
            "state": self._state(),
        }
        if self.reason is not None:
            data["reason"] = self.reason
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        game = cls.__new__(cls)
        game.players = list(data["players"])
        game.config = validate_options(cls.title, cls.options, data["options"])
        game.rng = Rng.from_state(data["rng"])
        game.finished = data["finished"]
        game.winners = list(data["winners"])
        game.scores = dict(data["scores"])
        game.reason = data.get("reason")
        game._legal_cache = {}
        game._restore(data["state"])
        return game

    # -- helpers for subclasses -----------------------------------------------------------
    def _match_pick(self, legal: list[Action], action_id: str) -> tuple[Action, list[str]]:
        """Match ``id:a.b.c`` against a pick action and check the choice's shape."""
        for action in legal:
            if action.pick is None:
                continue
            prefix = action.id + ":"
            if not action_id.startswith(prefix):
                continue
            chosen = action_id[len(prefix) :].split(".")
            if "" in chosen and chosen != [""]:
                raise IllegalAction("That choice is not valid.")
            chosen = [c for c in chosen if c]
            pick = action.pick
            if len(set(chosen)) != len(chosen):
                raise IllegalAction("You chose the same card twice.")
            unknown = [c for c in chosen if c not in pick.options]
            if unknown:
                raise IllegalAction(f"You cannot choose {', '.join(unknown)} for that.")
            if not pick.min <= len(chosen) <= pick.max:
                if pick.min == pick.max:
                    many = "card" if pick.min == 1 else "cards"
                    raise IllegalAction(f"Choose exactly {pick.min} {many}.")
                raise IllegalAction(f"Choose between {pick.min} and {pick.max} cards.")
            return action, chosen
        raise IllegalAction("That move is not available right now.")

    def _finish(self, winners: list[str], reason: str) -> None:
        self.finished = True
        self.winners = list(winners)
        self.reason = reason

    def _placings(self) -> list[list[str]]:
        """Winners first, then the others by score (highest first); equal scores share."""
        rest = [p for p in self.players if p not in self.winners]
        return ([list(self.winners)] if self.winners else []) + rank_by(
            rest, lambda p: -self.scores.get(p, 0)
        )

    # -- what a subclass implements ---------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        raise NotImplementedError

    def _legal(self, player: str) -> list[Action]:
        raise NotImplementedError

    def _apply(self, player: str, action: Action, chosen: list[str] | None) -> list[Event]:
        """Carry out a legal action. ``chosen`` is the validated pick, else None.

        Must raise IllegalAction *before* changing anything if the choice is refused.
        """
        raise NotImplementedError

    def _view(self, player: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def _state(self) -> dict[str, Any]:
        raise NotImplementedError

    def _restore(self, state: dict[str, Any]) -> None:
        raise NotImplementedError
