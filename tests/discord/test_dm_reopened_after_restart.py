"""A DM that reaches a member in one game brings back their other games' DM hands, after a
restart too."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import message_text
from tests.discord.restarts import graceful_restart
from tests.discord.test_dm_reopened_elsewhere import (
    dm_of,
    first_move,
    game_one_after_bea_plays,
    two_games_one_dm_refused,
)


async def test_a_dm_that_reaches_her_after_a_restart_brings_back_her_other_games_dm(
    simcord_env: Any, make_bot: Any
) -> None:
    """ann plays game #1 (with bea) and game #2 (with cy). One edit of her DMs is refused
    (50007) as game #1 redraws her hand: game #1 marks her DMs closed. The bot restarts.
    Her next DM, in game #2, lands. Before, the closed marks were known only to the process
    that made them: her game #1 DM kept the hand she was dealt, "Your turn" and live
    buttons. Now they are read at start, and game #2's DM brings game #1's back."""
    env = simcord_env
    ann, one, two = await two_games_one_dm_refused(env)
    seat = next(s for s in await env.bot.store.seats(one.game_id) if s.user_id == ann.id)
    assert seat.dm_closed, "game #1 did not mark her DMs closed"

    await graceful_restart(env, make_bot)
    await env.settle()
    await first_move(two, ann)  # game #2's edit of her DM: lands (her DMs are open)
    await env.bot.presenter.idle()
    two_hand = (await two.game()).view(str(ann.id))["hand"]
    assert f"({len(two_hand)} cards)" in message_text(dm_of(ann, two.game_id))

    hand, shown = await game_one_after_bea_plays(env, one, ann)
    assert f"({len(hand)} cards)" in shown, (
        f"after a restart, game #1 holds {len(hand)} cards for ann while her DMs work "
        f"(game #2's DM reached her); her game #1 DM still shows:\n{shown}"
    )
