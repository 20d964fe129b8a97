"""A member's third timed-out turn that is also the game's last move: no seat is handed to
a bot by it, so no "I'm back" is promised and the result is the member's."""

from __future__ import annotations

import random

from cogs.clock import now
from db import SeatChange
from tests.discord.driver import Table, message_text
from tests.discord.restarts import choose, fast_forward

TIMER = 30


async def to_forced_end(table: Table, rng: random.Random) -> str:
    """Store moves until the one member awaited has only moves that end the game; that
    member."""
    for _ in range(3000):
        game = await table.game()
        actors = [p for p in game.actors() if game.legal_actions(p)]
        if len(actors) == 1:
            legal = game.legal_actions(actors[0])
            ends = []
            for action in legal:
                if action.pick is not None:
                    ends.append(False)
                    continue
                trial = game.copy()
                trial.apply(actors[0], action.id)
                ends.append(trial.finished)
            if all(ends):
                return actors[0]
        player, action_id = await choose(table, rng)
        trial = game.copy()
        trial.apply(player, action_id)
        if not trial.finished:
            await fast_forward(table, player, action_id)
    raise AssertionError("no forced last move")


async def test_no_im_back_notice_after_a_game_ended_by_a_third_timeout(simcord_env) -> None:
    """bea, away, has timed out twice; her third timeout is the game's last move (Haymaker:
    the bot takes the hit for her and ann wins by knockout). Before, under the end post came
    "<@bea> ran out of time three turns in a row, so a bot is playing your seat. Press
    **I'm back** on the table to take it back.", untrue of a finished game whose table has no
    such button, and the log ended on "a bot plays for them" after "wins". Now the move that
    ends the game hands no seat over."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=12, turn_timer=TIMER)
    bea = await to_forced_end(table, random.Random(1))
    bot = table.bot
    async with bot.sessions.lock(table.game_id):
        session = await bot.sessions.get(table.game_id)
        assert session is not None
        await bot.sessions.change_seat(session, SeatChange(int(bea), False, None, None, 2), now())
    posted = len(table.channel.history())
    await env.advance_time(301)  # the clock loop's next look: bea's turn has timed out
    await bot.presenter.idle()
    row = await bot.store.get_game(table.game_id)
    assert row is not None and row.status == "finished"
    after = [message_text(m) for m in table.channel.history()[posted:]]
    end = next(i for i, text in enumerate(after) if "Final scores" in text)
    later = after[end + 1 :]
    assert not any("I'm back" in text for text in later), later
    assert not any("a bot is playing your seat" in text for text in later), later


async def test_a_last_member_whose_third_timeout_wins_the_game_is_given_the_win(
    simcord_env,
) -> None:
    """Ann plays UNO alone against a bot and walks away. Her third timed-out turn is the
    bot playing her last card, which wins the game. Before, the seat was handed to a bot by
    that very move, so Ann, "away" at the end, got a loss in /stats for a game her own seat
    won, and the channel read "ran out of time ... a bot took your seat" after the end post.
    Now the result is hers, as after a first or second strike (docs/rules/common.md)."""
    table = await Table.start(simcord_env, "uno", 1, bots=1, seed=5, turn_timer=TIMER, target=30)
    (ann,) = table.members
    session = await table.session()
    seat = (await table.game()).players.index(ann)
    # Ann's turn, her last card playable; the bot's hand is worth more than the target.
    hands = ["R9 G9 B9 Y9 R8"] * 2
    hands[seat] = "R5"
    await table.set_state(h=hands, x="R3", c="R", t=seat, ph="play")
    # Two turns timed out already; her third runs out now.
    t0 = simcord_env.now().timestamp()
    await simcord_env.bot.sessions.change_seat(
        session, SeatChange(int(ann), False, None, None, 2), t0
    )
    await simcord_env.bot.sessions.set_clocks(session, {"turn": {ann: t0 + TIMER}})
    now._last = None  # read from the test (real monotonic clock): the bot's reads only
    await simcord_env.advance_time(TIMER + 2)
    await simcord_env.bot.presenter.idle()
    texts = [message_text(m) for m in table.public_messages()]
    log = (await table.session()).public_log
    assert any("strike 3 of 3" in line for line in log), log
    row = await simcord_env.bot.store.get_game(table.game_id)
    assert row is not None and row.status == "finished"
    stats = await simcord_env.bot.store.stats(table.channel.guild.id, int(ann))
    assert stats == {"uno": (1, 1)}, (stats, texts[-2:])
    assert not any("took your seat" in text for text in texts), texts[-2:]
