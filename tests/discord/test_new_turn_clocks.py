"""A new turn for a player awaited again right after a move (a Haymaker reversal): the
clocks start over, as for any new turn (the renderers' ``turn_of``)."""

from __future__ import annotations

import discord

from tests.discord.driver import Table

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
