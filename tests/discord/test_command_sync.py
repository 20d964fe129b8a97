"""Command sync as README's "Creating the bot application" step 4 tells an owner to do it:
``DEV_GUILD_ID`` for instant sync while developing, then left empty in production."""

from __future__ import annotations

from typing import Any


async def test_leaving_dev_guild_id_empty_again_does_not_double_every_command(
    simcord_env: Any, make_bot: Any
) -> None:
    """An owner follows README step 4: sets DEV_GUILD_ID to their test server while trying
    the bot, then empties it (".env.example: Leave empty in production") and restarts.
    Before, the copies synced to the test server stayed beside the global commands: every
    command was listed twice there, for good. Now the bot remembers where it synced last
    and clears that server's copies when the commands move on."""
    env = simcord_env
    guild = env.create_guild()
    await env.restart_bot(make_bot(dev_guild_id=guild.id))  # developing: instant sync
    await env.settle()
    assert env.backend.commands.get(guild.id), "the dev sync did not reach the server"
    await env.restart_bot(make_bot())  # production: DEV_GUILD_ID empty again
    await env.settle()
    channel = guild.create_text_channel("games")
    member = guild.add_member(env.create_user("ann"))
    shown = [
        c["name"] for c in env.backend.visible_commands(user_id=member.id, channel_id=channel.id)
    ]
    doubled = sorted({name for name in shown if shown.count(name) > 1})
    assert not doubled, (
        f"after going back to global sync, the test server lists these commands twice "
        f"(stale server copies next to the global ones): {doubled}"
    )


async def test_moving_dev_guild_id_to_another_server_clears_the_first(
    simcord_env: Any, make_bot: Any
) -> None:
    """DEV_GUILD_ID moved from one test server to another: the first keeps no copies."""
    env = simcord_env
    first, second = env.create_guild(), env.create_guild()
    await env.restart_bot(make_bot(dev_guild_id=first.id))
    await env.settle()
    await env.restart_bot(make_bot(dev_guild_id=second.id))
    await env.settle()
    assert not env.backend.commands.get(first.id)
    assert env.backend.commands.get(second.id)
