"""Card faces when the application's emojis are shared or full.

1. Two processes of one bot (README "Scaling out": SHARD_COUNT=2, one command per shard) start
   together. Both list the application's emojis (none yet) and both upload. Application emoji
   names are unique, so the loser of the first race gets "already exists" (50035). Before, it
   logged it and stopped for good, never listing again, so until its next restart it showed
   text for every face the other process uploaded: a table or DM drawn by one process showed
   card faces, the next update drawn by the other showed text.

2. A new artwork version (ART_VERSION bump) on an application close to Discord's limit of
   2,000 emojis: before, the new faces were all uploaded before any old one was deleted, so
   the first upload hit 30008 "Maximum number of emojis reached" and the sync stopped before
   deleting anything, at every restart. Now each face replaces its old version one for one.
"""

from __future__ import annotations

import asyncio

from cogs.faces import catalog
from cogs.faces.book import FaceBook
from tests.fakediscord import FakeDiscord


async def test_two_processes_starting_together_both_show_every_face(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes]
) -> None:
    names = catalog.all_faces()[:12]  # a few faces are enough to race on
    async with connect() as first, connect() as second:
        books = [FaceBook(c, faces=names, draw=deck_pngs.__getitem__) for c in (first, second)]
        for book in books:
            book.start()
        await asyncio.gather(*(book.wait() for book in books))
        # Every face is up once on the application...
        assert sorted(e["name"] for e in fake.app_emojis.values()) == sorted(names)
        # ...so each process should show it, whichever of them uploaded it.
        for n, book in enumerate(books):
            missing = [name for name in names if book.text(name) is None]
            assert not missing, (
                f"process {n + 1} shows {len(missing)} of {len(names)} faces as text although "
                f"they are uploaded (failed={book.failed}, uploaded={book.uploaded})"
            )


async def test_new_artwork_arrives_on_an_application_near_the_emoji_limit(
    fake: FakeDiscord, connect, deck_pngs: dict[str, bytes]
) -> None:
    names = catalog.all_faces()
    for name in names:  # an earlier release's artwork, one emoji per face
        stem = catalog.split_name(name)
        assert stem is not None
        fake.add_app_emoji(f"{stem[0]}_v0")
    for n in range(2000 - len(fake.app_emojis)):  # the owner's other emojis fill the rest
        fake.add_app_emoji(f"other_{n}")
    assert len(fake.app_emojis) == 2000
    async with connect() as client:
        book = FaceBook(client, draw=deck_pngs.__getitem__)
        book.start()
        await book.wait()
    # Replacing old faces one for one never needs more room than there is.
    assert book.ready, (
        f"{len(book.uploaded)} of {len(names)} new faces uploaded (failed={book.failed}); "
        "the old versions were kept and filled the slots the new ones needed"
    )
    assert not any(e["name"].endswith("_v0") for e in fake.app_emojis.values())
