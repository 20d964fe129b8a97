"""/replay by a member removed from the game and from its private channel."""

from __future__ import annotations

import random
import secrets
from typing import Any

import discord
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from tests.discord.driver import Table, message_text, private_channel


async def test_a_member_kicked_from_a_private_game_and_its_channel_cannot_replay_it(
    simcord_env: Any,
) -> None:
    """A Haymaker game in a private channel (only ann and cy may read it). The host /kicks
    cy and a moderator takes away her access to the channel; ann plays on against the bot
    in cy's seat. Players may replay their game when they can no longer read its channel
    (it was deleted). Before, so could cy, who then stepped through the moves made after
    she was removed. Now a member removed from the game is told there is no such game."""
    env = simcord_env
    guild = env.create_guild()
    ann, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "cy"))
    channel = private_channel(guild, "secret", ann, cy)
    general = guild.create_text_channel("general")
    draw = secrets.randbits
    secrets.randbits = lambda bits: 12 if bits == 63 else draw(bits)  # type: ignore[assignment]
    try:
        result = await ann.slash(channel, "newgame haymaker", turn_timer=0)
        assert result.response is not None and not result.ephemeral, result
        lobby = channel.last_message
        for member in (cy,):
            assert (await member.click(lobby, label="Join")).acknowledged
        await ann.click(lobby, label="Start")
    finally:
        secrets.randbits = draw  # type: ignore[assignment]
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    table = Table(env, channel, [ann, cy], game_id)
    kicked = await ann.slash(channel, "kick", member=cy)
    assert kicked.ephemeral and "a bot plays that seat" in kicked.response.content
    env.backend.set_overwrite(  # the moderator shuts cy out of the channel
        channel.id,
        Overwrite(
            target_id=cy.id,
            type=OverwriteType.MEMBER,
            deny=discord.Permissions(view_channel=True).value,
        ),
    )
    await table.play_random(random.Random(1))
    await env.bot.presenter.idle()
    assert (await table.game()).finished
    outsider = await cy.slash(general, "replay", game=game_id)
    text = message_text(outsider.response)
    assert outsider.ephemeral
    assert "no such game" in text, (
        f"cy, removed from the game and shut out of its private channel, replays it:\n{text}"
    )
