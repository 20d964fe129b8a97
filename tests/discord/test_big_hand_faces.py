"""A very big UNO hand with card faces on. The DM's hand, over an embed's 4,000 characters
as faces, was cut at that length: in the middle of a face's code (raw ``<:uno_R5_v1:12``
text on the player's screen), and the cards after the cut were not shown at all. Now the
hand that does not fit as faces is shown in words, whole."""

from __future__ import annotations

import re

import pytest

from cogs.faces.catalog import NoFaces
from cogs.render import faces
from cogs.render.spec import clip
from tests.discord.driver import Table


@pytest.fixture
async def faces_on(simcord_env, make_bot):
    bot = make_bot(card_emojis=True)
    await simcord_env.restart_bot(bot)
    await bot.faces.wait()
    yield bot
    faces.use(NoFaces())


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)  # drawing only
async def test_a_hand_too_big_for_its_faces_is_shown_whole_in_words(simcord_env, faces_on) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=6)
    game = await table.game()
    state = game.to_dict()["state"]
    mover = game.actors()[0]
    waiting = next(p for p in game.players if p != mover)
    seat = game.players.index(waiting)
    hands, draw = state["h"], state["d"].split()  # the stored form: cards joined by spaces
    hands[seat] += " " + " ".join(draw[:-3])  # 97 cards: too many faces for one embed
    await table.set_state(h=hands, d=" ".join(draw[-3:]))
    hand = (await table.game()).view(waiting)["hand"]
    assert len(hand) == 97

    dm = table.dm_message(waiting)
    assert dm is not None
    text = dm.embeds[0].description
    assert len(text) <= 4096
    # No face cut in half: every "<" opens a whole face.
    assert all(re.fullmatch(r"<a?:\w+:\d+>", m) for m in re.findall(r"<[^>\s]*>?", text))
    assert "97 cards" in text
    # Every card named: one line per colour (the wilds last), the cards in words.
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("**Your hand**")) + 1
    colours = {c[0] if c[0] in "RYGB" and not c.startswith("W") else "W" for c in hand}
    named = [n for line in lines[first : first + len(colours)] for n in line.split(", ")]
    assert len(named) == len(hand)


def test_clip_never_cuts_a_face_or_a_mention_in_half() -> None:
    face = "<:uno_R5_v1:123456789012345678>"
    text = "Hand: " + face * 3
    for limit in range(8, len(text)):
        cut = clip(text, limit)
        assert len(cut) <= limit and cut.endswith("…")
        assert re.sub(r"<:uno_R5_v1:\d+>", "", cut[len("Hand: ") :]) in ("…", "")
    mention = "hi <@123456789012345678> there"
    assert clip(mention, 12) == "hi …"
