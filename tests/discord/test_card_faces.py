"""Card faces on Discord: buttons, select options, hands and the table carry the bot's own
emojis once they are uploaded, and no move ever uploads an image."""

from __future__ import annotations

import pytest

from cogs.render import faces
from cogs.render.uno import card_name
from tests.discord.driver import Table, message_text

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_buttons_hands_and_table_show_faces(simcord_env, faces_on) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=6)
    game = await table.game()
    top, colour = game.view()["top"], game.view()["color"]
    message = table.table_message()
    embed = message.embeds[0]
    top_face = faces.face(top, colour)
    assert top_face is not None and top_face in embed.description
    assert embed.thumbnail.url == faces.url(top, colour)
    player = next(p for p in game.actors() if game.legal_actions(p))
    dm = table.dm_message(player)
    assert dm is not None and "<:uno_" in dm.embeds[0].description  # the hand as faces
    for card in game.view(player)["hand"]:  # and as words, for screen readers and search
        assert card_name(card).split(" ", 1)[1] in dm.embeds[0].description
    buttons = [c for row in dm.components for c in row.children]
    plays = [b for b in buttons if b.custom_id and ":play:" in b.custom_id]
    assert plays and all(b.emoji is not None and b.emoji.id for b in plays)
    # Moves upload nothing: no message carries an attachment.
    await table.act(player, next(a.id for a in game.legal_actions(player)), via="dm")
    for m in table.channel.history():
        assert m.attachments == []


async def test_with_faces_off_cards_stay_text(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=6)
    assert "<:uno_" not in message_text(table.table_message())
