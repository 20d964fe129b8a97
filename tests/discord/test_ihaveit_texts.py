"""I Have It on Discord: what players read at a goal win and in a restricted lead's DM."""

from __future__ import annotations

from tests.discord.driver import Table, message_text
from tests.discord.ihaveit_positions import bea_to_answer


async def test_the_end_post_names_the_goal_that_won(simcord_env) -> None:
    """ann draws her fourth King: the end post must say how she won (four Kings), as the
    rules page promises ("posted with the winner, how they won"). It says only "by
    collecting four of a rank or seven of a suit", because the renderer reads a view key
    ("goal") the engine never provides."""
    table = await Table.start(simcord_env, "ihaveit", 3, seed=3)
    ann, bea, _ = await bea_to_answer(table, ["KC", "KD", "KS", "2C", "5D"], "3C", ("KH",))
    # bea answers ann's 3♣ with J♣: ann draws K♥, her fourth King, and wins at once.
    await table.act(bea, "answer:JC", via="dm")
    game = await table.game()
    assert game.finished and game.winners == [ann]
    await table.env.settle()
    end = table.channel.last_message.content
    assert "Final scores" in end, end
    assert "four Kings" in end, end


async def test_the_decliners_dm_speaks_to_them_in_the_second_person(simcord_env) -> None:
    """After a decline, the decliner's own DM reads "**Your turn:** lead a single or a pair no
    higher than the lowest rank bea took, if they can." ("they" is the reader), and, above
    it, "🔒 bea-games's lead: ..." (her own name, in a message only she reads)."""
    table = await Table.start(simcord_env, "ihaveit", 3, seed=3)
    _, bea, _ = await bea_to_answer(table, ["2C", "3D", "4H", "5S", "6C"], "KC")
    await table.act(bea, "decline", via="table")
    dm = message_text(table.dm_message(bea))
    assert "**Your turn:** lead" in dm, dm
    assert "if they can" not in dm, dm
    # The lead limit, just above: before, it named the reader in the third person.
    assert "🔒 Your lead:" in dm and "bea-games's lead" not in dm, dm
