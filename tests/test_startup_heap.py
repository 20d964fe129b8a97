"""What is alive when the bot starts is frozen out of the collector (shorter full collections)."""

from __future__ import annotations

import gc
import weakref

from bot import freeze_startup_heap


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


def test_startup_heap_is_frozen_and_garbage_is_not() -> None:
    before = gc.get_freeze_count()
    old = Node()
    old_ref = weakref.ref(old)
    del old  # garbage when the bot starts: collected, not frozen for the process's life
    try:
        freeze_startup_heap()
        assert old_ref() is None
        assert gc.get_freeze_count() > before

        later = Node()  # made after the start: the collector still sees it
        later_ref = weakref.ref(later)
        del later
        gc.collect()
        assert later_ref() is None
    finally:
        gc.unfreeze()
