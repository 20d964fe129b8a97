"""A member choosing their move is not reminded that it is their turn: looking at their moves
(the table's picker, "My hand", the DM's Play) without making one puts the reminder off until
they have been away as long as the reminder's delay (``NUDGE_AFTER_SECONDS``, 20 s here).

Before, the reminder came 20 s into the turn whatever the member was doing: a ping, and two
calls to Discord (the post, and the deletion of the game's last reminder), for someone with the
move picker open in front of them."""

from __future__ import annotations

import pytest

from cogs import ids
from tests.discord.driver import Table, controls, target_of
from tests.discord.test_uno_discord import current_player, past_first_colour

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def reminders(table: Table) -> list[str]:
    return [m.content for m in table.public_messages() if "your turn in" in (m.content or "")]


async def open_picker(table: Table, player: str) -> None:
    message = table.table_message()
    play = next(c for c in controls(message) if target_of(c.custom_id) == ids.ROOT)
    result = await table.members[player].click(message, custom_id=play.custom_id)
    assert result.ephemeral and "Your turn" in (result.response.embeds[0].description or "")


async def test_the_reminder_waits_while_the_member_looks_at_their_moves(simcord_env) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=4, turn_timer=0)
    await past_first_colour(table)
    ann = await current_player(table)
    version = (await table.session()).version
    await env.advance_time(12)
    await open_picker(table, ann)  # choosing, 12 s into her turn
    await env.advance_time(10)  # 22 s: past the 20 s a reminder came at
    await env.bot.presenter.idle()
    assert reminders(table) == []
    await env.advance_time(11)  # 33 s: 21 s since she last looked
    await env.bot.presenter.idle()
    (reminder,) = reminders(table)
    assert f"<@{ann}>" in reminder
    assert (await table.session()).version == version, "no move was made for her"


async def test_my_hand_counts_and_a_member_who_never_looks_is_reminded_on_time(
    simcord_env,
) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=4, turn_timer=0)
    await past_first_colour(table)
    ann = await current_player(table)
    await env.advance_time(21)
    await env.bot.presenter.idle()
    assert len(reminders(table)) == 1, "reminded 20 s into the turn, as before"
    bea = next(p for p in table.members if p != ann)
    await table.act(ann, (await table.game()).legal_actions(ann)[0].id)
    if await current_player(table) != bea:
        pytest.skip("the deal gave ann another turn")
    await env.advance_time(15)
    result = await table.members[bea].click(table.table_message(), label="My hand")
    assert result.ephemeral
    await env.advance_time(10)  # 25 s into bea's turn, 10 s since she looked
    await env.bot.presenter.idle()
    assert not any(f"<@{bea}>" in r for r in reminders(table))
    await env.advance_time(12)
    await env.bot.presenter.idle()
    assert any(f"<@{bea}>" in r for r in reminders(table))


async def test_looks_are_forgotten_once_older_than_the_delay(simcord_env, monkeypatch) -> None:
    """The memory of looks stays small: past a limit, those older than the delay go, and a
    sweep that frees little raises the limit rather than running at every click."""
    timers = simcord_env.bot.get_cog("Timers")
    module = timers.looked.__func__.__globals__  # the extension's own module (loaded anew)
    monkeypatch.setitem(module, "LOOKS_KEPT", 3)
    timers._looks_limit = 3
    old = module["now"]() - 3600
    timers._looked = {(1, u): old for u in range(3)}
    timers.looked(2, 7)  # over the limit: the old ones go
    assert list(timers._looked) == [(2, 7)] and timers._looks_limit == 3
    timers.looked(2, 8)
    timers.looked(2, 9)
    timers.looked(2, 10)  # over again, all recent: kept, and the limit doubles
    assert len(timers._looked) == 4 and timers._looks_limit == 8
    for u in range(11, 15):
        timers.looked(2, u)
    assert len(timers._looked) == 8 and timers._looks_limit == 8
