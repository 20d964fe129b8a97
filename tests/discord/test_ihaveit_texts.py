"""I Have It on Discord: what players read at a goal win and in a restricted lead's DM."""

from __future__ import annotations

from engine.cards import standard_deck
from tests.discord.driver import Table, message_text


async def test_the_end_post_names_the_goal_that_won(simcord_env) -> None:
    """ann draws her fourth King: the end post must say how she won (four Kings), as the
    rules page promises ("posted with the winner, how they won"). It says only "by
    collecting four of a rank or seven of a suit", because the renderer reads a view key
    ("goal") the engine never provides."""
    table = await Table.start(simcord_env, "ihaveit", 3, seed=3)
    ann, bea, cy = (await table.game()).players
    hands = {
        ann: ["KC", "KD", "KS", "2C", "5D"],
        bea: ["7C", "8D", "9H", "10S", "JC"],
        cy: ["2D", "3H", "4S", "5C", "6D"],
    }
    used = {c for h in hands.values() for c in h} | {"KH", "3C"}
    pile = ["KH", *[c for c in standard_deck() if c not in used]]
    await table.set_state(
        hands=hands,
        pile=pile,
        discard=[],
        in_play={"player": ann, "cards": ["3C"]},
        current=bea,
        phase="answer",
        limit=None,
        taken_by=None,
        out=[],
        moves=5,
    )
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
    higher than the lowest rank bea took, if they can." ("they" is the reader)."""
    table = await Table.start(simcord_env, "ihaveit", 3, seed=3)
    ann, bea, cy = (await table.game()).players
    hands = {
        ann: ["2C", "3D", "4H", "5S", "6C"],
        bea: ["7C", "8D", "9H", "10S", "JC"],
        cy: ["2D", "3H", "4S", "5C", "6D"],
    }
    used = {c for h in hands.values() for c in h} | {"KC"}
    pile = [c for c in standard_deck() if c not in used]
    await table.set_state(
        hands=hands,
        pile=pile,
        discard=[],
        in_play={"player": ann, "cards": ["KC"]},
        current=bea,
        phase="answer",
        limit=None,
        taken_by=None,
        out=[],
        moves=5,
    )
    await table.act(bea, "decline", via="table")
    dm = message_text(table.dm_message(bea))
    assert "**Your turn:** lead" in dm, dm
    assert "if they can" not in dm, dm
