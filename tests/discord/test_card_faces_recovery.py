"""Card faces that Discord loses or refuses under a running bot: an upload failing on
Discord's side, a face deleted in the Developer Portal. Either way the cards show as text
for a moment, then as faces again, with no restart.

The simulator does not check component emojis, so this file adds Discord's check: a message
(or an interaction answer) whose buttons or select options name an application emoji that
does not exist is refused with 400 / 50035, as Discord does.
"""

from __future__ import annotations

from typing import Any

import pytest

from cogs.faces import art, catalog
from cogs.faces.book import FaceBook
from cogs.faces.catalog import NoFaces
from cogs.render import faces
from tests.discord.driver import Table, controls
from tests.discord.rest_checks import add_check, invalid_form, writes_message

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

_PNG: list[bytes] = []


def _cheap_draw(name: str) -> bytes:
    """One real face for every upload (the images are not what this file is about)."""
    if not _PNG:
        _PNG.append(art.png(catalog.back_face()))
    return _PNG[0]


def _component_emoji_ids(body: Any) -> list[int]:
    found: list[int] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            emoji = node.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id"):
                found.append(int(emoji["id"]))
            for key in ("components", "options", "data"):
                if key in node:
                    walk(node[key])
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(body)
    return found


@pytest.fixture
def discord_checks_component_emojis(simcord_env, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Discord's own check: custom emojis on components must exist. Returns the refusals."""
    refused: list[str] = []

    def check(backend: Any, method: str, path: str, body: Any) -> None:
        if writes_message(method, body):
            known = set(backend.application_emojis)
            if any(i not in known for i in _component_emoji_ids(body)):
                refused.append(f"{method} {path}")
                raise invalid_form("components.0.components.0.emoji.id", "Invalid emoji")

    add_check(monkeypatch, check)
    return refused


@pytest.fixture
async def faces_on(simcord_env, make_bot, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(FaceBook.__init__.__kwdefaults__, "draw", _cheap_draw)
    bot = make_bot(card_emojis=True)
    await simcord_env.restart_bot(bot)
    await bot.faces.wait()
    assert bot.faces.ready
    yield bot
    faces.use(NoFaces())


async def test_an_emoji_deleted_in_the_portal_does_not_freeze_the_hands(
    simcord_env, faces_on, discord_checks_component_emojis
) -> None:
    """The owner deletes the bot's card emojis in the Developer Portal while a game runs.
    Before, the bot kept naming them on card buttons until a restart: after the next move
    the player whose DM showed moves never got their move buttons (16 edits refused in 10
    minutes, the DM as before the move). Now the first refusal for an unknown emoji makes
    the bot list its emojis again, showing text meanwhile and uploading what is missing,
    and the retry shows the hand. (Here the player to move draws a card on the table: their
    hand changes and they may play the card drawn, so their DM is drawn with moves.)"""
    table = await Table.start(simcord_env, "uno", 2, seed=6)
    game = await table.game()
    mover = game.actors()[0]
    # The owner deletes the application's emojis (the faces) in the Developer Portal.
    simcord_env.backend.application_emojis.clear()

    await table.act(mover, "draw", via="table")
    await simcord_env.advance_time(600)  # every retry the presenter makes

    after = await table.game()
    assert mover in after.actors() and after.legal_actions(mover), "the test needs a live DM"
    dm = table.dm_message(mover)
    assert dm is not None
    moves = [c for c in controls(dm) if c.custom_id and ":play:" in c.custom_id]
    passes = [c for c in controls(dm) if c.custom_id and c.custom_id.endswith(":pass")]
    refused = discord_checks_component_emojis
    assert refused, "nothing refused: the test no longer tests a deleted face"
    assert moves or passes, (
        f"{mover}'s DM still shows the hand from before the draw, without move buttons: "
        f"{len(refused)} edits refused for a deleted emoji ({refused[:2]})"
    )
    assert len(refused) <= 2, f"{len(refused)} calls refused for a deleted emoji"


async def test_an_upload_that_fails_on_discords_side_is_tried_again(
    simcord_env, make_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord answers the first upload of a face with 503. Before, the bot gave up the
    uploads for as long as it ran ("cards are shown as text until a restart"): one hiccup
    at first start left every card as text for days. Now a failure on Discord's side is
    tried again a minute later (then 2, 4... minutes), and the faces arrive."""
    monkeypatch.setitem(FaceBook.__init__.__kwdefaults__, "draw", _cheap_draw)
    simcord_env.inject_error(
        "POST", "/applications/*/emojis", status=503, message="Service Unavailable", times=1
    )
    bot = make_bot(card_emojis=True)
    await simcord_env.restart_bot(bot)
    try:
        await simcord_env.settle()
        assert not bot.faces.ready and not bot.faces.uploaded
        await simcord_env.advance_time(90)  # the next try, a minute after the failure
        await bot.faces.wait()
        assert bot.faces.ready, "the faces were not uploaded after Discord recovered"
        up = {e.name for e in simcord_env.backend.application_emojis.values()}
        assert set(bot.faces.faces) <= up
    finally:
        faces.use(NoFaces())


async def test_my_hand_refused_for_a_deleted_emoji_says_so_and_shows_text_next(
    simcord_env, faces_on, discord_checks_component_emojis
) -> None:
    """The faces are deleted and a player opens "My hand" before any edit has met the
    refusal: its answer names a deleted emoji, and Discord refuses it. The player is told
    to click again (not "something went wrong" with a traceback in the log), and the next
    click shows the hand, in text."""
    from cogs import ids
    from cogs.replies import FACES_GONE

    table = await Table.start(simcord_env, "uno", 2, seed=6)
    player = (await table.game()).players[0]
    member = table.members[player]
    simcord_env.backend.application_emojis.clear()
    refused = discord_checks_component_emojis

    first = await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
    assert refused, "the answer named no card face: the test no longer tests a refusal"
    assert first.ephemeral and first.response is not None
    assert FACES_GONE in first.response.content, first.response.content
    again = await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
    assert again.ephemeral and again.response is not None
    assert "Game #" in again.response.content, again.response.content
    assert any(c.custom_id and ":play:" in c.custom_id for c in controls(again.response))


async def test_faces_deleted_once_come_back_after_one_game_start(
    simcord_env, faces_on, discord_checks_component_emojis
) -> None:
    """The owner deletes the card emojis in the Developer Portal, then a War of Suits game
    starts: both players choose at once, so both DMs are sent together, each drawn with the
    deleted faces. Before, the second refusal, a moment after the first, counted as
    "refused again": it cancelled the new listing and turned the faces off until a restart.
    Now a refusal during a listing, or just after it, is of a message drawn before it:
    the faces are listed and uploaded again, and come back."""
    simcord_env.backend.application_emojis.clear()  # deleted in the Developer Portal
    table = await Table.start(simcord_env, "warofsuits", 2, seed=6)
    await simcord_env.advance_time(60)
    book = faces_on.faces
    refused = discord_checks_component_emojis
    assert refused, "nothing refused: the test no longer tests a deleted face"
    assert book.enabled, f"card faces off until a restart after one deletion: {refused}"
    await book.wait()
    assert book.ready, "the deleted faces were not uploaded again"
    game = await table.game()
    assert all(game.legal_actions(p) for p in game.players)


async def test_a_move_whose_answer_names_a_deleted_face_is_answered(
    simcord_env, faces_on, discord_checks_component_emojis
) -> None:
    """The card emojis are deleted in the Developer Portal; the player to move draws a card
    from their DM (its buttons drawn before). The move is stored, but the click's answer
    (the DM redrawn with the drawn card to play, as a face) is refused. Before, the click
    got no answer at all: Discord showed "This interaction failed" for a move that was
    made. Now the answer is drawn again, in text, and sent."""
    table = await Table.start(simcord_env, "uno", 2, seed=6)
    game = await table.game()
    mover = game.actors()[0]
    simcord_env.backend.application_emojis.clear()
    before = (await table.session()).version
    result = await table.act(mover, "draw", via="dm")  # her turn goes on: cards to play
    assert discord_checks_component_emojis, "nothing refused: the test tests nothing"
    assert (await table.session()).version > before, "the move was not stored"
    assert result.acknowledged, (
        "the click that made the move got no answer (Discord: 'This interaction failed')"
    )


async def test_a_newer_process_faces_are_not_deleted_by_an_older_one(
    simcord_env, faces_on, discord_checks_component_emojis
) -> None:
    """A rolling deploy on a shared PostgreSQL: a process of the next release (new artwork,
    ``_v2`` names) uploads its faces and deletes the ``_v1`` ones while this older process
    still runs a game. Its next message is refused and it lists the faces again. Before,
    it saw its own ``_v1`` faces as missing, uploaded them all again and deleted the newer
    ``_v2`` ones as "older versions" (the two releases then took turns deleting each
    other's faces). Now a face of a newer artwork version counts as up: shown as it is,
    never uploaded over nor deleted."""
    table = await Table.start(simcord_env, "uno", 2, seed=6)
    game = await table.game()
    mover = game.actors()[0]
    backend = simcord_env.backend
    newer: set[int] = set()
    for emoji in list(backend.application_emojis.values()):  # the next release's process
        if emoji.name.endswith("_v1"):
            newer.add(backend.create_application_emoji(emoji.name[:-3] + "_v2").id)
            backend.delete_application_emoji(emoji.id)
    await table.act(mover, "draw", via="dm")  # its answer names a _v1 face: refused
    await simcord_env.advance_time(600)
    assert discord_checks_component_emojis, "nothing refused: the test tests nothing"
    gone = newer - set(backend.application_emojis)
    assert not gone, f"the older process deleted {len(gone)} of the newer release's faces"


@pytest.fixture
def hiccups(simcord_env, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """While ``armed`` > 0, the next message naming only emojis that DO exist is refused
    once with Discord's "Invalid emoji" (a hiccup of Discord's, not a deleted face)."""
    state = {"armed": 0, "refused": 0}

    def check(backend: Any, method: str, path: str, body: Any) -> None:
        if state["armed"] and writes_message(method, body):
            ids = _component_emoji_ids(body)
            if ids and all(i in backend.application_emojis for i in ids):
                state["armed"] -= 1
                state["refused"] += 1
                raise invalid_form("components.0.components.0.emoji.id", "Invalid emoji")

    add_check(monkeypatch, check)
    return state


async def test_four_discord_hiccups_do_not_turn_the_faces_off_until_a_restart(
    simcord_env,
    faces_on,
    hiccups,
) -> None:
    """Discord refuses, once every two minutes, a message whose card emojis all exist
    ("Invalid emoji", a transient error of Discord's). Each listing the bot makes finds
    every face there. Before, the fourth such refusal counted as more than GIVE_UP_AFTER
    listings in a row and turned the faces off until a restart. Now a listing that finds
    every face counts nothing: the faces stay on."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=6, turn_timer=0)
    book = faces_on.faces
    for _ in range(8):  # a move's messages may name no face: until four were refused
        if hiccups["refused"] == 4:
            break
        hiccups["armed"] = 1
        await table.some_move(via="dm")
        await env.advance_time(120)
    assert hiccups["refused"] == 4, f"{hiccups['refused']} hiccups: the test tests nothing"
    assert not set(book.faces) - {e.name for e in env.backend.application_emojis.values()}, (
        "a face really is missing: the test no longer tests a hiccup"
    )
    await env.advance_time(3600)  # an hour with no refusal at all
    await env.advance_time(3600)
    assert book.enabled and book.ready, (
        "four transient 'Invalid emoji' refusals over eight minutes turned the card faces "
        "off until a restart (every face was there all along)"
    )
