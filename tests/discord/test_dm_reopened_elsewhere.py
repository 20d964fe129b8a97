"""One member in two games at once: her DM hands, one per game, in the same DM channel."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, message_text


async def start_with(
    env: Any, guild: Any, channel_name: str, members: list[Any], seed: int, **options: Any
) -> Table:
    """A started 2-player UNO game in a new channel of ``guild`` with these members (the
    same member may be in several games), hosted by the first."""
    channel = guild.create_text_channel(channel_name)
    return await Table.start_in(env, channel, members, "uno", seed, **options)


def dm_of(member: Any, game_id: int) -> Any:
    """The member's DM hand of that game (by its exact header, so #1 is not #10)."""
    mine = [
        m
        for m in member.user.dm_channel.history()
        if m.content and f"Your hand for game #{game_id} (" in m.content
    ]
    return mine[-1] if mine else None


async def first_move(table: Table, member: Any) -> None:
    game = await table.game()
    player = str(member.id)
    legal = game.legal_actions(player)
    plays = [a.id for a in legal if a.id.startswith("play:")]
    await table.act(player, plays[0] if plays else legal[0].id, via="picker")


async def two_games_one_dm_refused(env: Any) -> tuple[Any, Table, Table]:
    """ann in game #1 (with bea) and game #2 (with cy); one edit of her DMs refused (50007)
    as game #1 redraws her hand after her first move."""
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    cy = guild.add_member(env.create_user("cy"))
    one = await start_with(env, guild, "one", [ann, bea], seed=7)
    two = await start_with(env, guild, "two", [ann, cy], seed=8)
    await env.bot.presenter.idle()
    dm_channel = ann.user.dm_channel
    env.inject_error(
        "PATCH",
        f"/channels/{dm_channel.id}/messages*",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=1,
    )
    await first_move(one, ann)  # game #1's edit of her DM: refused, once
    await env.bot.presenter.idle()
    return ann, one, two


async def game_one_after_bea_plays(env: Any, one: Table, ann: Any) -> tuple[list[str], str]:
    """bea plays on in game #1 and time passes: ann's hand there, and what her DM shows."""
    await one.some_move(via="picker")
    await env.bot.presenter.idle()
    await env.advance_time(60)
    await env.bot.presenter.idle()
    hand = (await one.game()).view(str(ann.id))["hand"]
    return hand, message_text(dm_of(ann, one.game_id))


async def test_a_dm_that_reaches_her_in_one_game_brings_back_her_other_games_dm(
    simcord_env: Any,
) -> None:
    """ann plays game #1 (with bea) and game #2 (with cy); both DM hands sit in her one DM
    channel. Discord refuses one edit of her DMs (50007: she changed a privacy setting for a
    moment) as game #1 redraws her hand. Before: game #1 marked her DMs closed for good,
    while game #2 went on editing its DM in the same channel; her game #1 DM showed the
    cards she was dealt, "Your turn" and live buttons, until she pressed My hand in #1.
    Now a DM that reaches her in one game tries her other games' DM hands again."""
    env = simcord_env
    ann, one, two = await two_games_one_dm_refused(env)
    await first_move(two, ann)  # game #2's edit of her DM, same DM channel: lands
    await env.bot.presenter.idle()
    two_text = message_text(dm_of(ann, two.game_id))
    two_hand = (await two.game()).view(str(ann.id))["hand"]
    assert f"({len(two_hand)} cards)" in two_text, two_text  # her DMs work

    hand, shown = await game_one_after_bea_plays(env, one, ann)
    assert f"({len(hand)} cards)" in shown, (
        f"game #1 holds {len(hand)} cards for ann, her game #1 DM still shows:\n{shown}"
    )
