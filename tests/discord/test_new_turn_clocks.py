"""A new turn for a player awaited again right after a move (a Haymaker reversal, a Skip
with two players): the clocks start over, as for any new turn (the renderers' ``turn_of``)."""

from __future__ import annotations

import discord

from tests.discord.driver import Table, set_uno

TIMER = 30


def _deal(attacker_hand: list[str], defender_hand: list[str]) -> tuple[list[str], list[str]]:
    from engine.games.haymaker import full_deck

    rest = [c for c in full_deck() if c not in attacker_hand + defender_hand]
    return rest[:4], rest[4:]


async def _attacked_with_a_reversal_ready(table: Table) -> tuple[str, str]:
    """The attacker attacks with the 5♣; the defender holds the 5♦, a reversal."""
    game = await table.game()
    attacker = game.view()["attacker"]
    defender = next(p for p in game.players if p != attacker)
    a_hand = ["5C", "9C", "8C", "7C", "2H", "3H", "4H", "6H", "9H", "10H"]
    d_hand = ["5D", "9D", "8D", "7D", "2S", "3S", "4S", "6S", "9S", "10S"]
    burned, deck = _deal(a_hand, d_hand)
    await table.set_state(
        hands={attacker: a_hand, defender: d_hand},
        deck=deck,
        burned=burned,
        phase="attack",
        attacker=attacker,
        attacked_last=None,
    )
    await table.act(attacker, "attack:5C", via="dm")
    return attacker, defender


async def test_haymaker_reversal_after_a_timeout_gives_the_new_attacker_no_time(
    simcord_env,
) -> None:
    """Haymaker, 30 s turn timer. Bea's time to defend runs out and a bot blocks for her
    (strike 1). The block is a reversal: "the roles switch and the next turn begins". Before,
    the bot attacked for her in the same instant ("is still away: a bot finishes their
    turn"), with no time on the clock and no strike. Now her new turn has its full timer."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=8, turn_timer=TIMER)
    _attacker, defender = await _attacked_with_a_reversal_ready(table)
    assert (await table.session()).hosted.awaited(await table.game()) == [defender]
    before = (await table.session()).version
    await env.advance_time(TIMER + 1)  # the defender is away: timed out once
    session = await table.session()
    game = await table.game()
    moves = [(seq, str(u), a) for seq, u, a in await table.bot.store.moves(table.game_id)]
    made = [m for m in moves if m[0] > before]
    assert made and made[0][1] == defender and made[0][2].startswith("block"), made
    assert game.view()["attacker"] == defender, "the bot's block was not a reversal"
    # Her attacking turn (a new turn) must still be hers to play, on a fresh clock.
    assert len(made) == 1, (
        f"the bot also played her next turn at once: {made}; log: {session.public_log[-3:]}"
    )
    deadline = session.row.clocks.get("turn", {}).get(defender)
    assert deadline is not None and deadline > discord.utils.utcnow().timestamp() + TIMER - 5, (
        session.row.clocks
    )


async def test_haymaker_own_reversal_starts_a_turn_with_no_reminder(simcord_env) -> None:
    """Haymaker, reminders after 20 s. Bea is reminded to defend, then blocks with a
    reversal herself: a new turn, she attacks. Before, her reminder stuck while she stayed
    awaited: none for her new turn, however long the table waited. Now she gets one."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=8)
    _attacker, defender = await _attacked_with_a_reversal_ready(table)

    def reminders() -> list:
        return [
            m
            for m in table.public_messages()
            if "your turn in" in (m.content or "") and f"<@{defender}>" in m.content
        ]

    await env.advance_time(25)
    assert len(reminders()) == 1  # reminded once for her defence
    await table.act(defender, "block:5D", via="dm")
    assert (await table.game()).view()["attacker"] == defender  # a reversal: her new turn
    first = reminders()[0].id
    await env.advance_time(120)
    fresh = [m for m in reminders() if m.id != first]
    assert fresh, "no reminder for her new attacking turn"


def _now() -> float:
    return discord.utils.utcnow().timestamp()


async def _moves_after(table: Table, version: int) -> list[tuple[int, str, str]]:
    moves = await table.bot.store.moves(table.game_id)
    return [(seq, str(u), a) for seq, u, a in moves if seq > version]


async def _ann_to_play_after_bea(table: Table, ann: str, bea: str) -> None:
    """Ann (seat 0) holds a red Skip and nothing else red; bea plays a red 9: ann's turn,
    with the clocks a real move sets."""
    hands = [["RS", "GS", "Y1", "Y2", "Y3", "B4", "B6"], ["R9", "B1", "B2", "B3", "B5", "Y6"]]
    await set_uno(table, hands, "R5", cur=1)
    await table.act(bea, "play:R9", via="dm")
    assert (await table.game()).view()["current"] == ann


async def test_uno_two_players_timed_out_skip_gives_no_time_for_the_new_turn(
    simcord_env,
) -> None:
    """Two-player UNO, 30 s turn timer. Ann's time runs out; the bot moving for her plays
    her red Skip, so her next turn begins at once. Before, the bot also played that new
    turn in the same instant, with no time on her clock and no strike (UNO had no
    ``turn_of``). Now a card played ends the turn: her new one has its full time."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=TIMER)
    game = await table.game()
    ann, bea = game.players
    await _ann_to_play_after_bea(table, ann, bea)
    before = (await table.session()).version
    await env.advance_time(TIMER + 1)  # ann is away: timed out once
    made = await _moves_after(table, before)
    assert made and made[0][1] == ann and made[0][2] == "play:RS", made
    assert len(made) == 1, (
        f"the bot also played ann's next turn at once, with no time for her: {made}"
    )
    game = await table.game()
    assert game.view()["current"] == ann  # the Skip gives her the next turn (two players)
    deadline = (await table.session()).row.clocks.get("turn", {}).get(ann)
    assert deadline is not None and deadline > _now() + TIMER - 5


async def test_uno_two_players_own_skip_starts_a_turn_with_no_reminder(simcord_env) -> None:
    """Two-player UNO, reminders after 20 s. Ann is reminded, then plays a red Skip herself:
    her next turn begins at once. Before, her reminder of the last turn stuck: never
    reminded again, however long the table waited. Now the new turn gets its own."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7)
    game = await table.game()
    ann, bea = game.players
    await _ann_to_play_after_bea(table, ann, bea)

    def reminders() -> list:
        return [
            m
            for m in table.public_messages()
            if "your turn in" in (m.content or "") and f"<@{ann}>" in m.content
        ]

    await env.advance_time(25)
    assert len(reminders()) == 1  # reminded once, for her first turn
    first = reminders()[0].id
    await table.act(ann, "play:RS", via="dm")
    assert (await table.game()).view()["current"] == ann  # her new turn
    await env.advance_time(120)
    fresh = [m for m in reminders() if m.id != first]
    assert fresh, "no reminder for ann's new turn after her own Skip"


async def test_back_after_the_bot_reversed_gives_the_old_turns_run_out_deadline(
    simcord_env, make_bot
) -> None:
    """Haymaker, 30 s timer, bots pause 10 s. Bea, defending, leaves with 10 s left; the bot
    in her seat blocks with a reversal (her new turn: she attacks); she comes back before it
    attacks. Before, she was given her defence's deadline, already run out: timed out the
    moment she returned. Now what was left of a turn is given back only in that turn."""
    env = simcord_env
    await env.restart_bot(make_bot(bot_pause=10))
    table = await Table.start(env, "haymaker", 2, seed=8, turn_timer=TIMER)
    _attacker, defender = await _attacked_with_a_reversal_ready(table)
    member = table.members[defender]
    deadline = (await table.session()).row.clocks["turn"][defender]
    await env.advance_time(TIMER - 10)  # 10 s of her defence left
    ask = await member.slash(table.channel, "leave")
    await member.click(ask.response, label="Leave the game")
    left = (await table.session()).version
    await env.advance_time(11)  # the bot blocks for her: a reversal, her new turn
    session = await table.session()
    made = await _moves_after(table, left)
    assert [m[2] for m in made] == ["block:5D"], made
    assert (await table.game()).view()["attacker"] == defender
    assert _now() > deadline  # her defence's deadline has passed meanwhile
    back = await member.slash(table.channel, "back")
    assert back.ephemeral and "Welcome back" in back.response.content
    await env.advance_time(1)
    session = await table.session()
    made = await _moves_after(table, left)
    seat = session.seat(int(defender))
    assert len(made) == 1 and seat is not None and seat.strikes == 0, (
        f"timed out the moment she came back for her new turn: moves {made}, "
        f"strikes {seat and seat.strikes}, log {session.public_log[-2:]}"
    )
    given = session.row.clocks.get("turn", {}).get(defender)
    assert given is not None and given > _now() + TIMER - 5, (
        f"her new attacking turn got {given and given - _now():.0f} s, not a full turn"
    )


async def test_game_stored_before_turn_of_times_out_into_a_reversal(simcord_env) -> None:
    """A Haymaker game stored by the previous release (no "turn_of" in its clocks): Bea's
    time to defend runs out and the bot blocks for her with a reversal. Before, with no
    stored turn, the change looked like the same turn and the bot attacked for her at once.
    Now the turn before a move is read from the game itself."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=8, turn_timer=TIMER)
    _attacker, defender = await _attacked_with_a_reversal_ready(table)
    bot = table.bot
    async with bot.sessions.lock(table.game_id):
        session = await table.session()
        old = {k: v for k, v in session.row.clocks.items() if k != "turn_of"}
        assert await bot.sessions.set_clocks(session, old)  # as the previous release stored
    before = (await table.session()).version
    await env.advance_time(TIMER + 1)  # bea is away: timed out once
    made = await _moves_after(table, before)
    assert made and made[0][1] == defender and made[0][2].startswith("block"), made
    assert (await table.game()).view()["attacker"] == defender  # a reversal: her new turn
    assert len(made) == 1, f"the bot also played her new attacking turn at once: {made}"
