"""Ratings from outcomes: openskill's Plackett-Luce, members only, placings and ties."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import engine
from cogs import ratings
from cogs.sessions import finishing_result
from db import SeatRow, Store
from engine.core import Outcome


def seat(user: int, n: int, *, human: bool = True, bot: bool = False) -> SeatRow:
    return SeatRow(1, user, n, f"p{n}", bot, None, None, False, human, None, None, 0)


def test_a_win_moves_both_ratings_apart() -> None:
    after = ratings.rate({}, {"a": 1, "b": 2})
    assert after["a"].mu > 25 > after["b"].mu
    assert after["a"].sigma < ratings.fresh().sigma  # the bot grows surer of both
    assert ratings.shown(after["a"].ordinal) > 1000 > ratings.shown(after["b"].ordinal)


def test_a_three_way_placing_orders_the_ratings() -> None:
    after = ratings.rate({}, {"a": 1, "b": 2, "c": 3})
    assert after["a"].ordinal > after["b"].ordinal > after["c"].ordinal


def test_a_draw_leaves_equal_players_equal() -> None:
    after = ratings.rate({}, {"a": 1, "b": 1})
    assert after["a"] == after["b"] and after["a"].mu == pytest.approx(25)


def test_a_shared_win_rates_the_winners_alike_above_the_rest() -> None:
    placings = [["a", "c"], ["b"], ["d"]]  # an Item Collection shared win
    ranks = ratings.places(placings, ["a", "b", "c", "d"], away=set())
    assert ranks == {"a": 1, "c": 1, "b": 3, "d": 4}
    after = ratings.rate({}, ranks)
    assert after["a"] == after["c"] and after["a"].ordinal > after["b"].ordinal


def test_bots_are_not_rated_and_members_away_come_last() -> None:
    ranks = ratings.places([["-1"], ["a"], ["b"]], ["a", "b"], away={"a"})
    assert ranks == {"b": 1, "a": 2}  # the bot is left out; a left the table: last


def test_a_previous_rating_carries_over() -> None:
    strong = ratings.Rating(35.0, 3.0)
    after = ratings.rate({"a": strong}, {"a": 2, "b": 1})  # an upset
    assert after["a"].mu < 35.0 and after["b"].mu > 25.0


def finished(kind: str, players: list[str]) -> engine.Game:
    game = engine.new_game(kind, players, seed=1)
    from engine.testing import playout

    playout(game, seed=2)
    return game


async def test_the_store_rates_once_ranks_and_keeps_hidden_members_off(database: str) -> None:
    store = await Store.open(database)
    try:

        async def play(channel: int, winner: int, loser: int, bots: bool = False) -> None:
            game = finished("haymaker", [str(winner), str(loser)])
            if game.winners != [str(winner)]:  # make the winner win: swap names
                game = finished("haymaker", [str(loser), str(winner)])
            row = await store.create_lobby(1, channel, "haymaker", winner, "h", {}, seed=1)
            await store.start_game(row.id, {}, {})
            seats = [seat(winner, 0), seat(loser, 1, human=not bots, bot=bots)]
            await store.record_move(
                row.id,
                0,
                winner,
                "x",
                game.to_dict(),
                {},
                status="finished",
                result=finishing_result(game, seats),
            )

        for i in range(3):
            await play(10 + i, 7, 8)
        await play(20, 9, 8)
        await play(21, 9, -1, bots=True)  # one member and a bot: counted, not rated
        top = await store.leaderboard(1, "haymaker", min_games=3)
        assert [r.user_id for r in top] == [7, 8]  # 9 has one rated game: not listed yet
        seven = top[0]
        assert (seven.played, seven.won, seven.streak, seven.rated) == (3, 3, 3, 3)
        nine = {r.kind: r for r in await store.member_stats(1, 9)}["haymaker"]
        assert (nine.played, nine.won, nine.rated) == (2, 2, 1)
        assert await store.rank(1, "haymaker", top[1].ordinal, 3) == 2
        await store.set_hidden(7, True)
        assert [r.user_id for r in await store.leaderboard(1, "haymaker", 3)] == [8]
        assert await store.rank(1, "haymaker", top[1].ordinal, 3) == 1
    finally:
        await store.close()


def _ended(winners: list[str], placings: list[list[str]]) -> Any:
    """A finished game as ``finishing_result`` reads it: its outcome only."""
    return SimpleNamespace(outcome=Outcome(winners, placings, "finished", {}))


def test_leaving_is_a_forfeit_only_when_the_leavers_seat_decided_the_game() -> None:
    """Members 1 and 2 play with a bot seat (-1); member 2 left (a bot plays their seat)."""
    seats = [seat(1, 0), seat(2, 1, bot=True), seat(-1, 2, human=False, bot=True)]
    # The bot playing the leaver's seat won: the member who stayed wins by forfeit.
    won_by_leaver = finishing_result(_ended(["2"], [["2"], ["1"], ["-1"]]), seats)
    assert (won_by_leaver.winners, won_by_leaver.draw) == ([1], False)
    # A draw with a leaver: the same.
    drawn = finishing_result(_ended([], [["1", "2", "-1"]]), seats)
    assert (drawn.winners, drawn.draw) == ([1], False)
    # The game's own bot won: a plain loss for both members, no forfeit.
    won_by_bot = finishing_result(_ended(["-1"], [["-1"], ["2"], ["1"]]), seats)
    assert (won_by_bot.winners, won_by_bot.draw) == ([], False)
    # Nobody left: a draw stays a draw.
    stayed = [seat(1, 0), seat(2, 1)]
    assert finishing_result(_ended([], [["1", "2"]]), stayed).draw
