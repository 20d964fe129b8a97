"""A game never stalls: turn timers with strikes, "I'm back", nudges, leaving and kicking,
and clocks that survive a restart exactly once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from cogs.clock import now
from db import SeatChange
from tests.discord.driver import Table, controls, message_text

TIMER = 30  # seconds per turn in these tests
NUDGE = 20  # the production default: remind after 20 s


async def current(table: Table) -> str:
    session = await table.session()
    game = await table.game()
    return session.hosted.awaited(game)[0]


async def a_move(table: Table, player: str) -> str:
    legal = (await table.game()).legal_actions(player)
    plays = [a.id for a in legal if a.id.startswith("play")]
    return plays[0] if plays else legal[0].id


async def first_player_times_out(
    env: Any,
    table: Table,
    times: int = 3,
    before: Callable[[str, int], Awaitable[None]] | None = None,
    after: Callable[[int], Awaitable[None]] | None = None,
) -> None:
    """A two-player game: the second member moves (from her DM) whenever it is her turn, and
    the first lets his turn run out ``times`` times. ``before`` runs as each turn of his
    starts (with the player and the timeouts so far), ``after`` once it ran out."""
    _, second = table.members
    timeouts = 0
    while timeouts < times:
        player = await current(table)
        if player == second:
            await table.act(second, await a_move(table, second), via="dm")
            continue
        if before is not None:
            await before(player, timeouts)
        await env.advance_time(TIMER + 1)
        timeouts += 1
        if after is not None:
            await after(timeouts)


async def stop_clocks(env) -> None:
    """The bot's clock loop stops as in a dying process (a simulated restart would first let
    every pending clock run: that is the simulator draining, not the bot)."""
    await env.bot.get_cog("Timers").cog_unload()


def nudges(table: Table) -> list:
    return [m for m in table.public_messages() if "your turn in" in (m.content or "")]


async def test_an_absent_member_times_out_three_times_then_comes_back(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=5, turn_timer=TIMER)
    ann, bea = table.members

    async def before(player: str, timeouts: int) -> None:
        assert player == ann
        seat = (await table.session()).seat(int(ann))
        assert seat is not None and seat.strikes == timeouts and not seat.is_bot
        # The table shows the deadline as a live countdown.
        assert "Time runs out <t:" in message_text(table.table_message())

    async def after(timeouts: int) -> None:
        log = (await table.session()).public_log
        assert any(f"strike {timeouts} of 3" in line for line in log), log

    # Get to ann's turn with bea moving whenever it is hers.
    await first_player_times_out(simcord_env, table, before=before, after=after)
    session = await table.session()
    seat = session.seat(int(ann))
    assert seat is not None and seat.is_bot and seat.away == "timeout"
    assert any("a bot is playing your seat" in (m.content or "") for m in table.public_messages())
    # From now on ann's turns are played by the bot, at once.
    for _ in range(3):
        if (await table.game()).finished:
            break
        if await current(table) == bea:
            await table.act(bea, await a_move(table, bea), via="dm")
        assert await current(table) == bea or (await table.game()).finished
    # "I'm back" on the table returns the seat: ann's next turn waits for her again.
    back = await table.members[ann].click(table.table_message(), label="I'm back")
    assert back.ephemeral and "Welcome back" in back.response.content
    seat = (await table.session()).seat(int(ann))
    assert seat is not None and not seat.is_bot and seat.strikes == 0
    if not (await table.game()).finished:
        await table.act(bea, await a_move(table, bea), via="dm")
        assert await current(table) == ann


async def test_a_timed_out_turn_is_one_strike_and_the_bot_finishes_it(simcord_env) -> None:
    """Before: a turn of two moves (UNO: draw, then play or keep) restarted the clock after the
    bot's draw and struck again when it ran out: two strikes for one turn."""
    # Seed 196: the first player holds nothing playable and draws a playable card.
    table = await Table.start(simcord_env, "uno", 2, seed=196, turn_timer=TIMER)
    first = await current(table)
    assert [a.id for a in (await table.game()).legal_actions(first)] == ["draw"]
    await simcord_env.advance_time(TIMER + 1)
    session = await table.session()
    seat = session.seat(int(first))
    assert seat is not None and seat.strikes == 1 and not seat.is_bot
    # The bot drew and then finished the turn at once: the next player is up.
    assert await current(table) != first
    moves = await table.bot.store.moves(table.game_id)
    mine = [action for _, user, action in moves if str(user) == first]
    assert len(mine) == 2 and mine[0] == "draw", mine
    log = session.public_log
    assert sum("ran out of time" in line for line in log) == 1, log
    assert any("strike 1 of 3" in line for line in log) and any(
        "still away" in line for line in log
    )


async def test_one_absent_item_collection_round_is_not_three_strikes(simcord_env) -> None:
    """Before: the starting player away for one round timed out on claim, place and swap,
    three strikes, and lost the seat to a bot. Claim and place are one turn, the swap another."""
    table = await Table.start(simcord_env, "itemcollection", 4, seed=2, turn_timer=TIMER)
    starting = (await table.game()).view()["starting"]
    await simcord_env.advance_time(125)  # the talk's own clock runs out (no strikes)
    for _ in range(40):
        game = await table.game()
        if game.view()["round"] != 1 or game.finished:
            break
        awaited = (await table.session()).hosted.awaited(game)
        if awaited == [starting]:
            await simcord_env.advance_time(TIMER + 1)  # the starting player is away
            continue
        await table.act(awaited[0], game.legal_actions(awaited[0])[0].id, via="dm")
    assert (await table.game()).view()["round"] == 2
    seat = (await table.session()).seat(int(starting))
    assert seat is not None and not seat.is_bot and seat.strikes == 2


async def test_a_nudge_is_not_repeated_when_a_draw_leaves_the_turn_open(simcord_env) -> None:
    # Seed 196: the first player holds nothing playable and draws a playable card.
    table = await Table.start(simcord_env, "uno", 2, seed=196, turn_timer=0)
    first = await current(table)
    await simcord_env.advance_time(NUDGE + 1)
    (nudge,) = nudges(table)
    await table.act(first, "draw", via="dm")
    assert await current(table) == first  # still their turn: play the card or keep it
    await simcord_env.advance_time(NUDGE + 1)
    # Not a second one (which would also have deleted the first).
    assert [m.id for m in nudges(table)] == [nudge.id]


async def test_a_nudge_comes_once_per_turn_and_replaces_the_last(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=9, turn_timer=0)
    # Whoever is first moves within the grace: no nudge for them.
    first = await current(table)
    await simcord_env.advance_time(NUDGE - 5)
    await table.act(first, await a_move(table, first), via="dm")
    assert nudges(table) == []
    # The next player waits: one nudge after the grace, pinging exactly them.
    waiting = await current(table)
    await simcord_env.advance_time(NUDGE + 1)
    (nudge,) = nudges(table)
    assert f"<@{waiting}>" in nudge.content and "/channels/" in nudge.content
    stored = simcord_env.backend.get_message(table.channel.id, nudge.id)
    assert set(stored.ping_user_ids) == {int(waiting)}
    # Not repeated for the same turn.
    await simcord_env.advance_time(5 * NUDGE)
    assert len(nudges(table)) == 1
    # The next slow turn's nudge replaces it (the old one is deleted). A draw leaves the
    # turn open (play or keep the card): the turn ends with the move after it.
    await table.act(waiting, await a_move(table, waiting), via="dm")
    while (other := await current(table)) == waiting:
        await table.act(waiting, await a_move(table, waiting), via="dm")
    await simcord_env.advance_time(NUDGE + 1)
    shown = nudges(table)
    assert len(shown) == 1 and shown[0].id != nudge.id and f"<@{other}>" in shown[0].content
    # A player can turn them off, from the nudge itself.
    off = await table.members[other].click(shown[0], label="Stop reminding me")
    assert off.ephemeral and "won't ping you" in off.response.content
    seen = {m.id for m in nudges(table)}
    for _ in range(4):  # a few more slow turns: nobody reminds them any more
        if (await table.game()).finished:
            break
        player = await current(table)
        await simcord_env.advance_time(NUDGE + 1)
        await table.act(player, await a_move(table, player), via="dm")
    fresh = [m for m in nudges(table) if m.id not in seen]
    assert fresh, "the other player was still reminded"
    assert all(f"<@{other}>" not in m.content for m in fresh)


async def test_leave_mid_turn_hands_the_seat_to_a_bot(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=3)
    mover = await current(table)
    ask = await table.members[mover].slash(table.channel, "leave")
    assert ask.ephemeral and "A bot will play your seat" in ask.response.content
    done = await table.members[mover].click(ask.response, label="Leave the game")
    assert done.ephemeral and "bot plays your seat" in done.response.content
    session = await table.session()
    seat = session.seat(int(mover))
    assert seat is not None and seat.is_bot and seat.away == "left"
    # The bot took the turn at once; the game goes on.
    assert await current(table) != mover
    assert any("left game" in (m.content or "") for m in table.public_messages())
    # Leaving freely, they may come back.
    back = await table.members[mover].slash(table.channel, "back")
    assert back.ephemeral and "Welcome back" in back.response.content


async def test_leave_in_a_simultaneous_phase_lets_the_bot_choose(simcord_env) -> None:
    table = await Table.start(simcord_env, "warofsuits", 2, seed=4)
    red, black = table.members
    game = await table.game()
    choice = next(a.id for a in game.legal_actions(red) if a.id.startswith("choose"))
    await table.act(red, choice)
    before = (await table.session()).version
    ask = await table.members[black].slash(table.channel, "leave")
    await table.members[black].click(ask.response, label="Leave the game")
    session = await table.session()
    # The bot made black's secret choice, the battle went on.
    assert session.version > before
    moves = await table.bot.store.moves(table.game_id)
    assert moves[before][1] == int(black) and moves[before][2].startswith("choose:")


async def test_kick_during_an_uno_window_and_last_member_leaving_abandons(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    ann, bea, cy = table.members
    # Only the host (or a server manager) may kick.
    refused = await table.members[bea].slash(table.channel, "kick", member=table.members[cy])
    assert refused.ephemeral and "Only the host" in refused.response.content
    kicked = await table.members[ann].slash(table.channel, "kick", member=table.members[cy])
    assert kicked.ephemeral and "bot plays that seat" in kicked.response.content
    seat = (await table.session()).seat(int(cy))
    assert seat is not None and seat.is_bot and seat.away == "kicked"
    # A kicked member cannot take the seat back.
    back = await table.members[cy].slash(table.channel, "back")
    assert back.ephemeral and "can't return" in back.response.content
    # The last members leave: the game ends as abandoned, no winner counted.
    for member in (bea, ann):
        ask = await table.members[member].slash(table.channel, "leave")
        await table.members[member].click(ask.response, label="Leave the game")
    session = await table.session()
    assert session.row.status == "cancelled" and session.row.ended_reason == "abandoned"
    assert any("abandoned" in (m.content or "") for m in table.public_messages())
    assert await table.bot.store.stats(table.channel.guild.id, int(ann)) == {}


async def test_a_kicked_member_no_longer_sees_the_seat_in_their_dm(simcord_env) -> None:
    """Before: the DM of a kicked member went on showing the cards the bot now plays, updated
    with every move, and offered "I'm back", which then refused them."""
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    ann, _, cy = table.members
    await table.members[ann].slash(table.channel, "kick", member=table.members[cy])
    await simcord_env.bot.presenter.idle()
    dm = table.dm_message(cy)
    assert dm is not None and "removed from this game, so its cards" in message_text(dm)
    assert controls(dm) == [] and not dm.embeds
    edited = simcord_env.backend.get_message(dm.channel.id, dm.id).edited_timestamp
    # Moves are made, the seat's bot among them: the DM shows none of its cards.
    for _ in range(6):
        if (await table.game()).finished:
            break
        player = await current(table)
        if player == cy:
            await simcord_env.advance_time(6)
            continue
        await table.act(player, await a_move(table, player), via="dm")
    await simcord_env.advance_time(6)
    await simcord_env.bot.presenter.idle()
    game = await table.game()
    renderer = (await table.session()).hosted.renderer
    dm = table.dm_message(cy)
    assert dm is not None
    assert renderer.hand_text(game.view(cy)["hand"]) not in message_text(dm)
    assert simcord_env.backend.get_message(dm.channel.id, dm.id).edited_timestamp == edited


async def test_a_bot_move_due_across_a_restart_is_made_once(simcord_env, make_bot) -> None:
    # A long pause: the simulator also fires virtual timers once as much real time has passed.
    await simcord_env.restart_bot(make_bot(bot_pause=40))
    table = await Table.start(simcord_env, "haymaker", 1, bots=1, seed=8)
    human = next(iter(table.members))
    if await current(table) == human:
        await table.act(human, await a_move(table, human))
    else:
        await simcord_env.advance_time(41)  # the bot attacks first; then it is the member's turn
        await table.act(human, await a_move(table, human))
    session = await table.session()
    before, bot = session.version, session.bots[0]
    assert await current(table) == bot and "bot" in session.row.clocks
    await simcord_env.advance_time(10)
    assert (await table.session()).version == before, "moved too early"
    await stop_clocks(simcord_env)  # the process dies before the move falls due
    await simcord_env.restart_bot(make_bot(bot_pause=40))
    assert (await table.session()).version == before, "moved during the restart"
    await simcord_env.advance_time(31)
    moves = await table.bot.store.moves(table.game_id)
    assert [str(u) for seq, u, _ in moves if seq == before + 1] == [bot]
    game = await table.game()
    replay = game.copy()  # the stored state is the log replayed (no move twice)
    assert replay.to_dict() == game.to_dict()


async def test_a_turn_deadline_across_a_restart_times_out_once(simcord_env, make_bot) -> None:
    table = await Table.start(simcord_env, "haymaker", 2, seed=8, turn_timer=TIMER)
    player = await current(table)
    before = (await table.session()).version
    await simcord_env.advance_time(TIMER - 10)
    await stop_clocks(simcord_env)  # the process dies before the deadline
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(15)
    moves = await table.bot.store.moves(table.game_id)
    made = [(seq, str(u)) for seq, u, _ in moves if seq > before]
    assert made == [(before + 1, player)], made  # one timeout, for the absent player
    seat = (await table.session()).seat(int(player))
    assert seat is not None and seat.strikes == 1


async def test_a_move_setting_only_a_later_clock_lets_the_clock_loop_sleep_on(
    simcord_env, monkeypatch
) -> None:
    first = await Table.start(simcord_env, "uno", 2, "first", seed=9, turn_timer=0)
    second = await Table.start(simcord_env, "uno", 2, "second", seed=9, turn_timer=0)
    await simcord_env.advance_time(5)  # the clock loop sleeps until the first reminder is due
    store = simcord_env.bot.store
    looks = 0
    real_next_wake = store.next_wake

    async def next_wake():
        nonlocal looks
        looks += 1
        return await real_next_wake()

    monkeypatch.setattr(store, "next_wake", next_wake)
    mover = await current(second)
    await second.act(mover, await a_move(second, mover), via="dm")
    # The move set the second game's next reminder after the first game's: no query for it.
    assert looks == 0
    # And every reminder still comes on time: the first game's, then the second's.
    waiting = await current(first)
    await simcord_env.advance_time(NUDGE - 5 + 1)
    assert [f"<@{waiting}>" in m.content for m in nudges(first)] == [True]
    assert looks >= 1
    after = await current(second)
    await simcord_env.advance_time(5)
    assert [f"<@{after}>" in m.content for m in nudges(second)] == [True]


def test_the_clock_loop_looks_again_only_for_an_earlier_clock() -> None:
    from cogs.timers import Timers

    timers = Timers.__new__(Timers)  # the rule alone, without a bot
    woken: list[bool] = []
    timers.wake = lambda: woken.append(True)  # type: ignore[method-assign]
    timers._sleeping, timers._until = True, 100.0
    timers.moved(150.0)
    timers.moved(None)  # a game without clocks any more: the loop's next look finds out
    assert woken == []
    timers.moved(99.0)
    assert woken == [True]
    timers._sleeping = False  # mid-pass: always look again (the pass may have read too early)
    timers.moved(150.0)
    assert woken == [True, True]


async def test_a_clock_that_stores_the_game_ends_its_claim_with_no_more_writes(simcord_env) -> None:
    """Firing a clock first claims the game (its wake-up moves a lease ahead). A reminder stores
    the game's clocks and a bot's move stores the whole game, either way with the real wake-up:
    no further write just to end the claim. Before: one more set_clocks after each (a commit
    and, on SQLite, an fsync apiece)."""
    table = await Table.start(simcord_env, "uno", 1, bots=1, seed=77, target=30)
    store = table.bot.store
    member = next(iter(table.members))
    writes: list[str] = []
    set_clocks = store.set_clocks

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        writes.append("set_clocks")
        return await set_clocks(*args, **kwargs)

    store.set_clocks = counted
    await simcord_env.advance_time(1)  # the bot's first move, if it starts
    for _ in range(3):
        # The member's turn: one reminder after the grace, one write.
        assert await current(table) == member
        writes.clear()
        await simcord_env.advance_time(NUDGE + 1)
        assert writes == ["set_clocks"]
        assert await store.next_wake() == (await table.session()).row.wake_at
        # The member moves; the bot answers: its move stores the clocks, nothing after it.
        await table.act(member, await a_move(table, member), via="dm")
        writes.clear()
        await simcord_env.advance_time(1)
        assert writes == []
        assert await store.next_wake() == (await table.session()).row.wake_at


async def test_a_member_back_while_their_bot_thinks_keeps_the_turn(simcord_env) -> None:
    """ "I'm back" pressed while the seat's bot is still deciding: the bot's choice is dropped
    and the turn waits for the member (the bot used to move for them anyway)."""
    table = await Table.start(simcord_env, "uno", 2, seed=3, turn_timer=0)
    mover = await current(table)
    timers = simcord_env.bot.get_cog("Timers")
    decide = timers._decide
    sessions = simcord_env.bot.sessions
    answers: list = []

    async def slow_decide(session, turn):  # type: ignore[no-untyped-def]
        if turn.player == mover and not answers:
            # The member comes back (what /back stores) before the bot has made up its mind.
            async with sessions.lock(table.game_id):
                seated = await sessions.get(table.game_id)
                back = SeatChange(int(mover), False, None, None, 0)
                await sessions.change_seat(seated, back, now())
            answers.append(back)
        return await decide(session, turn)

    timers._decide = slow_decide
    moves_before = len(await table.bot.store.moves(table.game_id))
    ask = await table.members[mover].slash(table.channel, "leave")
    await table.members[mover].click(ask.response, label="Leave the game")
    assert answers, "the bot never thought about the member's seat"
    seat = (await table.session()).seat(int(mover))
    assert seat is not None and not seat.is_bot
    # Nobody moved for them: the turn is still theirs.
    assert len(await table.bot.store.moves(table.game_id)) == moves_before
    assert await current(table) == mover


async def test_a_game_that_ends_keeps_no_turn_reminder(simcord_env) -> None:
    """Before: the last reminder, with its Stop reminding me button, stayed in the channel
    after the game ended (by /endgame here, or by its last move)."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    await simcord_env.advance_time(25)  # past the 20 s grace: a reminder is posted
    assert len(nudges(table)) == 1
    host = next(iter(table.members.values()))
    ended = await host.slash(table.channel, "endgame")
    assert not ended.ephemeral
    await table.bot.presenter.idle()
    assert nudges(table) == []
    assert (await table.bot.store.get_game(table.game_id)).nudge_message_id is None  # type: ignore[union-attr]


async def test_clocks_worked_out_again_leave_the_game_shown(simcord_env) -> None:
    """A due clock whose reason went away is worked out again (``Timers._recompute``). Before,
    that write changed the game's revision and nothing drew it: with several processes,
    another one redrew the whole table and every DM some twenty seconds later, and the table
    could go on showing a deadline that had moved."""
    table = await Table.start(simcord_env, "uno", 2, seed=5, turn_timer=TIMER)
    bot = table.bot
    await bot.presenter.idle()
    await bot.presenter.flush_drawn()
    assert await bot.store.claim_undrawn("probe", now() + 3600, 0, 1) == []
    rev = await bot.store.game_rev(table.game_id)
    timers = bot.get_cog("Timers")
    async with bot.sessions.lock(table.game_id):
        session = await bot.sessions.get(table.game_id)
        assert session is not None
        await timers._recompute(session, now() + 5)  # the turn deadline moves on 5 s
    assert await bot.store.game_rev(table.game_id) > rev
    await bot.presenter.idle()
    await bot.presenter.flush_drawn()
    assert await bot.store.claim_undrawn("probe", now() + 3600, 0, 1) == []
    deadline = min((await table.session()).row.clocks["turn"].values())
    assert f"<t:{int(deadline)}:R>" in message_text(table.table_message())
