"""FaceBook against the wire-level fake Discord: each face uploaded once, nothing again after a
restart, never waited for, and failures leave play on text with one warning in the log."""

from __future__ import annotations

import asyncio
import logging
import threading

import discord
import pytest

from cogs.faces import catalog
from cogs.faces.book import FaceBook
from tests.fakediscord import FakeDiscord

EMOJIS = r"/applications/\d+/emojis"


def emoji_posts(fake: FakeDiscord) -> list[tuple[str, str, int]]:
    return [r for r in fake.requests if r[0] == "POST" and r[1].endswith("/emojis")]


def warnings_from_book(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r for r in caplog.records if r.name == "cogs.faces.book" and r.levelno >= logging.WARNING
    ]


async def test_every_face_uploaded_once_then_nothing_after_a_restart(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes]
) -> None:
    names = catalog.all_faces()
    async with connect() as client:
        book = FaceBook(client, draw=deck_pngs.__getitem__)
        book.start()
        await book.wait()
    assert sorted(fake.app_emoji_uploads) == sorted(names)
    assert book.uploaded == names and book.ready and not book.failed
    by_name = {e["name"]: int(e["id"]) for e in fake.app_emojis.values()}
    for name in names:
        emoji_id = by_name[name]
        assert fake.app_emoji_images[emoji_id] == deck_pngs[name]
        assert book.text(name) == f"<:{name}:{emoji_id}>"
        assert discord.PartialEmoji.from_str(book.text(name) or "").id == emoji_id  # buttons
        partial = book.partial(name)
        assert partial is not None and (partial.name, partial.id) == (name, emoji_id)
        assert (book.url(name) or "").endswith(f"/emojis/{emoji_id}.png")

    requests_before = len(fake.requests)
    async with connect() as client:  # the bot restarts on the same application
        again = FaceBook(client, draw=deck_pngs.__getitem__)
        again.start()
        await again.wait()
        assert again.uploaded == [] and again.ready
        assert all(again.text(name) == f"<:{name}:{by_name[name]}>" for name in names)
    assert len(fake.app_emoji_uploads) == len(names)
    emoji_calls = [r for r in fake.requests[requests_before:] if "/emojis" in r[1]]
    assert emoji_calls == [("GET", f"/applications/{fake.application_id}/emojis", 200)]


async def test_start_returns_at_once_and_old_artwork_shows_until_replaced(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes]
) -> None:
    face = catalog.uno_face("R7")
    stem = catalog.split_name(face)
    assert stem is not None
    old = fake.add_app_emoji(f"{stem[0]}_v0")  # drawn by an earlier release
    theirs = fake.add_app_emoji("party_parrot")  # not ours: left alone
    release = threading.Event()

    def slow_draw(name: str) -> bytes:
        release.wait(5)  # the upload is under way until the test lets it finish
        return deck_pngs[name]

    async with connect() as client:
        book = FaceBook(client, faces=[face], draw=slow_draw)
        book.start()
        assert book.text(face) is None  # nothing known yet: the caller shows text
        await fake.wait_for(lambda: any("/emojis" in r[1] for r in fake.requests))
        await asyncio.sleep(0.05)
        assert book.text(face) == f"<:{old['name']}:{old['id']}>"  # the old face meanwhile
        assert book.text("party_parrot") is None
        release.set()
        await book.wait()
        new = next(e for e in fake.app_emojis.values() if e["name"] == face)
        assert book.text(face) == f"<:{face}:{new['id']}>"
    assert book.deleted == [old["name"]]
    assert {e["name"] for e in fake.app_emojis.values()} == {face, theirs["name"]}


async def test_failing_uploads_leave_text_and_one_warning(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="cogs.faces.book")
    fake.inject_error(
        "POST", EMOJIS, 400, code=30018, message="Maximum number of emojis reached", times=None
    )
    async with connect() as client:
        book = FaceBook(client, draw=deck_pngs.__getitem__)
        book.start()
        await book.wait()  # ends quietly: nothing raised into the bot
    assert book.failed and book.uploaded == [] and not book.ready
    assert len(emoji_posts(fake)) == 1  # it stops at the first refusal instead of hammering
    for name in catalog.all_faces():
        assert book.text(name) is None and book.partial(name) is None and book.url(name) is None
    (warning,) = warnings_from_book(caplog)
    assert "Maximum number of emojis reached" in warning.getMessage()


async def test_failing_list_leaves_text_and_one_warning(
    fake: FakeDiscord, connect, caplog: pytest.LogCaptureFixture
) -> None:
    fake.inject_error("GET", EMOJIS, 403, code=50001, message="Missing Access", times=None)
    async with connect() as client:
        book = FaceBook(client, draw=lambda name: pytest.fail("nothing is drawn"))
        book.start()
        await book.wait()
    assert book.failed and book.text(catalog.back_face()) is None
    assert emoji_posts(fake) == []
    assert len(warnings_from_book(caplog)) == 1


async def test_a_rate_limited_upload_waits_and_goes_on(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes], caplog: pytest.LogCaptureFixture
) -> None:
    faces = [catalog.uno_face("G2"), catalog.standard_face("KD"), catalog.back_face()]
    fake.inject_error("POST", EMOJIS, 429, times=1, retry_after=0.05)
    async with connect() as client:
        book = FaceBook(client, faces=faces, draw=deck_pngs.__getitem__)
        book.start()
        await book.wait()
    assert [r[2] for r in emoji_posts(fake)] == [429, 200, 200, 200]
    assert book.uploaded == faces and not book.failed
    assert warnings_from_book(caplog) == []


async def test_turned_off_it_calls_nothing_and_shows_text(fake: FakeDiscord, connect) -> None:
    fake.add_app_emoji(catalog.back_face())
    async with connect() as client:
        book = FaceBook(client, enabled=False)
        book.start()
        await book.wait()
        assert book.text(catalog.back_face()) is None
    assert not [r for r in fake.requests if "/emojis" in r[1]]


async def test_close_stops_the_uploads(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes]
) -> None:
    started = asyncio.Event()
    loop = asyncio.get_running_loop()

    def draw(name: str) -> bytes:
        loop.call_soon_threadsafe(started.set)
        return deck_pngs[name]

    async with connect() as client:
        book = FaceBook(client, draw=draw)
        book.start()
        await started.wait()
        await book.close()
    assert len(fake.app_emoji_uploads) < len(catalog.all_faces())


# --- the fake's application emoji routes answer like Discord -------------------------------


async def test_fake_refuses_what_discord_refuses(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes]
) -> None:
    png = deck_pngs[catalog.back_face()]
    async with connect() as client:
        created = await client.create_application_emoji(name="back_v1", image=png)
        assert created.is_application_owned() and created.name == "back_v1"
        assert (await client.fetch_application_emoji(created.id)).name == "back_v1"
        refusals = {
            "x": png,  # too short a name
            "bad-name": png,
            "back_v1": png,  # taken
            "too_big": png + b"\0" * (256 * 1024),
        }
        for name, image in refusals.items():
            with pytest.raises(discord.HTTPException) as refused:
                await client.create_application_emoji(name=name, image=image)
            assert (refused.value.status, refused.value.code) == (400, 50035), name
        await created.delete()
        with pytest.raises(discord.NotFound) as gone:
            await client.fetch_application_emoji(created.id)
        assert gone.value.code == 10014
    assert fake.app_emoji_uploads == ["back_v1"] and fake.app_emojis == {}
