"""What /history and /replay tell about a game a member left (a bot played their seat)."""

from __future__ import annotations

import random

from tests.discord.driver import Table, message_text
from tests.discord.test_seat_change_endings import leave


async def _forfeited(simcord_env) -> tuple[Table, str, str]:
    """Two members play Haymaker; bea leaves at once and the bot playing her seat beats
    ann, so ann wins by forfeit in the stats (this deal)."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    ann, bea = table.members
    await leave(table, bea)
    await table.play_random(random.Random(1))
    await simcord_env.bot.presenter.idle()
    assert (await table.game()).winners == [bea]
    assert (await table.bot.store.stats(table.channel.guild.id, int(ann)))["haymaker"] == (1, 1)
    return table, ann, bea


async def test_history_of_a_forfeited_game_names_who_won_it_in_the_stats(simcord_env) -> None:
    """bea left and the bot playing her seat won; ann, who stayed, wins by forfeit: her
    /stats counts the win and the end post says so. Before, /history listed the game as
    "🏆 bea 🤖" and nothing more, the opposite of what the stats recorded. Now it adds
    "🏳️ ann by forfeit", as the end post does."""
    table, ann, _bea = await _forfeited(simcord_env)
    history = await table.members[ann].slash(table.channel, "history")
    line = next(
        row for row in message_text(history.response).splitlines() if f"#{table.game_id} " in row
    )
    name = (await table.session()).seat(int(ann)).name  # type: ignore[union-attr]
    assert line.split(" · ")[1] == f"🏳️ {name} by forfeit", line


async def test_replay_does_not_show_a_leavers_bot_moves_as_their_own(simcord_env) -> None:
    """bea left before her first move; every move of her seat was the bot's. Before, /replay
    named her plainly from the first step to the last and never said she left: anyone
    stepping through read the bot's moves as hers. Now the move after she left says so, as
    the replay already did for a seat handed over after three timeouts."""
    table, ann, bea = await _forfeited(simcord_env)
    member = table.members[ann]
    moves = await table.bot.store.moves(table.game_id)
    replay = await member.slash(table.channel, "replay", game=table.game_id)
    message = replay.response
    shown = [message_text(message)]
    for _ in range(len(moves)):
        message = (await member.click(message, label="Next")).response
        shown.append(message_text(message))
    name = (await table.session()).seat(int(bea)).name  # type: ignore[union-attr]
    assert f"{name} left the game: a bot plays their seat." in shown[1], shown[1]


async def test_the_table_log_says_when_a_seat_changed_hands(simcord_env) -> None:
    """bea leaves, then takes her seat back with /back: the log (the table's Recent, and so
    the replay) says each with the next move, so every move reads as whose it was."""
    table = await Table.start(simcord_env, "uno", 2, seed=3)
    _ann, bea = table.members
    await leave(table, bea)
    back = await table.members[bea].slash(table.channel, "back")
    assert back.ephemeral, back
    await table.some_move(via="picker")
    await simcord_env.bot.presenter.idle()
    name = (await table.session()).seat(int(bea)).name  # type: ignore[union-attr]
    recent = message_text(table.table_message())
    left = recent.index(f"{name} left the game: a bot plays their seat.")
    assert recent.index(f"{name} is back and plays their own seat again.") > left, recent
