"""A wire-level fake Discord (REST v10 + gateway on 127.0.0.1) for process-level bot tests.

Usage::

    async with FakeDiscord() as fake:
        # start tests/fakediscord/run_bot.py <fake.base_url> as a subprocess, then
        await fake.wait_connected()
        await fake.wait_commands("newgame")
        ix = await fake.slash("alice", "newgame", {"game": "uno"})
        assert (await ix.response()).type == 4
"""

from .server import (
    ApiError,
    CallbackRecord,
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    iter_components,
    validate_message,
)

__all__ = [
    "ApiError",
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "iter_components",
    "validate_message",
]
