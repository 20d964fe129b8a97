"""/replay shows the lines the bot added to the table with a move: a member's turn timed out,
their seat handed to a bot. Before, the replay re-made only the game's own events, so a
timed-out member's moves read as if they had made them."""

from __future__ import annotations

import pytest

from cogs.render.text import humanize
from tests.discord.driver import Table, controls, message_text

TIMER = 30


# What /replay draws from the stored log: the same on either database (the clocks that
# time a turn out are tested on both in test_turn_clocks.py).
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_the_replay_shows_the_timeouts_and_the_seat_taken_over(simcord_env) -> None:
    table = await Table.start(simcord_env, "warofsuits", 2, seed=4, turn_timer=TIMER)
    absent, present = table.members
    member = table.members[present]
    for _ in range(200):  # ann never plays: three timeouts, then a bot plays her seat
        game = await table.game()
        if game.finished:
            break
        if present in game.actors():
            await table.act(present, game.legal_actions(present)[0].id, via="dm")
        else:
            await simcord_env.advance_time(TIMER + 1)
    assert (await table.game()).finished
    assert (await table.session()).seat(int(absent)).is_bot  # type: ignore[union-attr]
    session = await table.session()
    bot_lines = [line for line in session.public_log if "ran out of time" in line]
    moves = await table.bot.store.moves(table.game_id)
    everything = []
    replay = await member.slash(table.channel, "replay", game=table.game_id)
    message = replay.response
    everything.append(message_text(message))
    for _ in range(len(moves)):
        message = (await member.click(message, label="Next")).response
        everything.append(message_text(message))
    assert not any(c.label == "Next" and not c.disabled for c in controls(message))
    shown = "\n".join(everything)
    timed_out = [s for s in ("strike 1 of 3", "strike 2 of 3", "strike 3 of 3") if s in shown]
    assert timed_out == ["strike 1 of 3", "strike 2 of 3", "strike 3 of 3"], shown[:600]
    assert "ran out of time three times: a bot plays for them" in shown
    for line in bot_lines:  # what the table said at the end, the replay says too
        assert humanize(line, session.names) in shown, line
