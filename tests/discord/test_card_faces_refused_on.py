"""Card faces Discord lists yet goes on refusing: the game goes on in text."""

from __future__ import annotations

from typing import Any

import pytest

from cogs import ids
from tests.discord.driver import Table, controls, target_of
from tests.discord.test_card_faces_recovery import faces_on, hiccups  # noqa: F401 (fixtures)

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_player_can_open_their_hand_while_discord_keeps_refusing_listed_faces(
    simcord_env: Any,
    faces_on: Any,  # noqa: F811
    hiccups: Any,  # noqa: F811
) -> None:
    """Discord refuses every message naming the bot's card emojis ("Invalid emoji"), while
    its emoji listing still names every one of them (a listing that lags a deletion, or any
    lasting refusal of emojis Discord lists). The player presses Play on the table and is
    told "Discord could not show the card pictures just now. Please click again.". Before,
    they were told the same at every press: each listing found every face, reset the
    give-up count (5ad79ee, for Discord's one-off hiccups) and put the faces back, so the
    next hand drawn named them again. Now a refusal soon after such a listing counts, and
    after a few the faces are turned off: the player gets their hand in text."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=6, turn_timer=0)
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    member = table.members[player]
    hiccups["armed"] = 10**9  # every message with faces on it, for good
    told: list[str] = []
    for _ in range(5):
        board = table.table_message()
        play = next(c for c in controls(board) if target_of(c.custom_id) == ids.ROOT)
        result = await member.click(board, custom_id=play.custom_id)
        moves = [c for c in controls(result.response) if c.custom_id and ":play:" in c.custom_id]
        moves += [
            c for c in controls(result.response) if c.custom_id and c.custom_id.endswith(":draw")
        ]
        if moves:
            return
        told.append(result.response.content if result.response else "")
        await env.advance_time(10)
    pytest.fail(
        f"five presses of Play, five refusals ({hiccups['refused']} messages refused); told: "
        f"{told[-1]!r}; faces on: {faces_on.faces.enabled}"
    )
