"""A whole UNO match on (simulated) Discord: lobby to winner, DMs, and nothing secret in public."""

from __future__ import annotations

import random

from cogs.render.uno import UnoRenderer
from tests.discord.driver import Table, message_text

RENDER = UnoRenderer("uno", "UNO")


async def assert_no_hand_in_public(table: Table) -> None:
    """No public message shows any player's hand or any private note."""
    session = await table.session()
    game = await table.game()
    public = "\n".join(message_text(m) for m in table.public_messages())
    assert "Your hand" not in public
    assert "Only you can see" not in public
    for player in game.players:
        hand = game.view(player)["hand"]
        if len(hand) >= 2:
            assert RENDER.hand_text(hand) not in public
        for note in session.notes(int(player)):
            if note.startswith("You"):
                assert note not in public


async def test_full_match_from_newgame_to_winner(simcord_env) -> None:
    # A pinned deal: the match's length (and the suite's time) does not depend on luck.
    table = await Table.start(simcord_env, "uno", 3, target=50, seed=20261123)
    game = await table.game()
    assert len(game.players) == 3

    # Every player got a DM with their hand, naming the game and linking to the channel.
    for player in game.players:
        dm = table.dm_message(player)
        assert dm is not None and "game #" in dm.content
        assert "Your hand" in dm.embeds[0].description
        # The link is in the message text, where Discord renders it (not in a footer).
        assert f"channels/{table.channel.guild.id}/{table.channel.id}" in dm.content

    moves = await table.play_random(random.Random(7), check=assert_no_hand_in_public)

    game = await table.game()
    assert game.finished and len(game.winners) == 1
    winner = game.winners[0]
    assert max(game.scores.values()) >= 50 and game.scores[winner] >= 50
    session = await table.session()
    assert session.row.status == "finished"
    # The result is announced in the channel with the scores, and the table has no buttons left.
    last = table.channel.last_message
    assert f"<@{winner}>" in last.content and "Final scores" in last.content
    assert table.table_message().components == []
    # DMs were kept up to date: each shows the player's final hand.
    for player in game.players:
        hand = game.view(player)["hand"]
        dm = table.dm_message(player)
        assert dm is not None
        assert (RENDER.hand_text(hand) if hand else "(no cards)") in dm.embeds[0].description
    # Every move was stored, in order.
    stored = await table.bot.store.moves(table.game_id)
    assert [seq for seq, _, _ in stored] == list(range(1, moves + 1))
    stats = await table.bot.store.stats(table.channel.guild.id, int(winner))
    assert stats == {"uno": (1, 1)}
