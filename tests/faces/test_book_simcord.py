"""FaceBook on simcord, the in-process simulator the bot's own Discord tests use."""

from __future__ import annotations

import discord
import pytest

from cogs.faces import catalog
from cogs.faces.book import FaceBook

FACES = [catalog.uno_face("Y4"), catalog.uno_face("W", "B"), catalog.standard_face("2C")]


@pytest.fixture
def simcord_bot() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())


async def test_faces_upload_once_on_simcord(
    simcord_env, simcord_bot: discord.Client, deck_pngs: dict[str, bytes]
) -> None:
    book = FaceBook(simcord_bot, faces=FACES, draw=deck_pngs.__getitem__)
    book.start()
    await book.wait()
    stored = {e.name: e.id for e in simcord_env.backend.application_emojis.values()}
    assert set(stored) == set(FACES) and book.uploaded == FACES
    for name in FACES:
        markup = book.text(name)
        assert markup == f"<:{name}:{stored[name]}>"
        # Renderers may hand the markup to a button or select option as its emoji.
        assert discord.PartialEmoji.from_str(markup).id == stored[name]

    again = FaceBook(simcord_bot, faces=FACES, draw=deck_pngs.__getitem__)
    again.start()
    await again.wait()
    assert again.uploaded == [] and len(simcord_env.backend.application_emojis) == len(FACES)


async def test_failing_uploads_on_simcord_leave_text(
    simcord_env, simcord_bot: discord.Client, deck_pngs: dict[str, bytes]
) -> None:
    simcord_env.inject_error("POST", "/applications/*/emojis", status=403, code=50013, times=None)
    book = FaceBook(simcord_bot, faces=FACES, draw=deck_pngs.__getitem__)
    book.start()
    await book.wait()
    assert book.failed and all(book.text(name) is None for name in FACES)
    assert simcord_env.backend.application_emojis == {}
