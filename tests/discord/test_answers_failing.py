"""/endgame and the lobby's Cancel whose answer fails (a busy bot answers after Discord's 3 s,
10062; or a 5xx): the game is ended in the database all the same, so what the channel shows
must follow, and nobody may be told "nothing was changed"."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, answer_fails, controls, message_text

OOPS = "nothing was changed"


def said(result: Any) -> str:
    parts = [result.response.content or ""] if result.response is not None else []
    return " ".join(parts + [f.content or "" for f in result.followups])


async def test_endgame_whose_answer_fails_still_closes_the_table(simcord_env: Any) -> None:
    """Before: the game is ended in the database, but the exception raised by the answer
    skipped ``presenter.update``: the table kept its live buttons ("Attack / block", "My
    hand") for good, the DMs kept showing the hand, no end post with Play again was made,
    and the host was told "Something went wrong on my side; nothing was changed"."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=3)
    ann, _bea = table.members.values()
    answer_fails(env)
    ended = await ann.slash(table.channel, "endgame")
    await env.advance_time(300)  # retries and the two-minute catch-up included
    await env.bot.presenter.idle()

    assert (await table.session()).row.status == "cancelled"  # it did end
    live = [
        c.label
        for c in controls(table.table_message())
        if not c.disabled and c.custom_id.startswith(("g:", "s:"))
    ]
    assert not live, f"the ended game's table still offers {live}"
    assert OOPS not in said(ended), said(ended)
    # The channel is told who ended it, with Play again, by a post instead of the answer.
    told = [m for m in table.channel.history() if "was ended by" in (m.content or "")]
    assert len(told) == 1 and [c.label for c in controls(told[0])] == ["Play again"], told
    for player in table.members:
        dm = table.dm_message(player)
        assert dm is not None and controls(dm) == [], message_text(dm) if dm else None


async def test_cancel_whose_answer_fails_still_closes_the_lobby(simcord_env: Any) -> None:
    """Before: Cancel ended the lobby, then its answer raised: the lobby message kept Join,
    Start and the rest (Join and Add bot redraw through the presenter in that case), and the
    host was told "nothing was changed"."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("lobby")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(channel, "newgame uno", turn_timer=0)
    lobby = channel.last_message
    answer_fails(env)
    cancelled = await ann.click(lobby, label="Cancel")
    await env.advance_time(60)
    await env.bot.presenter.idle()

    assert await env.bot.store.open_game_in_channel(channel.id) is None  # it did close
    shown = next(m for m in channel.history() if m.id == lobby.id)
    labels = [c.label for c in controls(shown) if not c.disabled]
    assert "Join" not in labels and "Start" not in labels, labels
    assert OOPS not in said(cancelled), said(cancelled)
