"""Button and select custom ids. Everything a click needs is in the id (<= 100 chars), so
buttons keep working after a restart with nothing registered per message.

- ``g:<game>:<version>:<target>``  act: ``target`` is a legal action id (apply it), a prefix of
  several (open the next step of the picker), or ``*`` (the whole picker).
- ``s:<game>:<version>[:<n>]``      a select whose chosen value is such a target.
- ``k:<game>:<version>:<action>``  a multi-select for a Pick action: applies ``action:a.b.c``.
- ``h:<game>``                     "My hand": the clicker's hand and moves, ephemeral.
- ``l:<game>:<verb>``              lobby: join, leave, start, cancel.
"""

from __future__ import annotations

ROOT = "*"
ACT = r"g:(?P<game>\d+):(?P<version>\d+):(?P<target>.+)"
SELECT = r"s:(?P<game>\d+):(?P<version>\d+)(?::\d+)?"
PICK = r"k:(?P<game>\d+):(?P<version>\d+):(?P<action>.+)"
HAND = r"h:(?P<game>\d+)"
LOBBY = r"l:(?P<game>\d+):(?P<verb>join|leave|start|cancel)"
MAX_ID = 100


def act(game: int, version: int, target: str) -> str:
    return _checked(f"g:{game}:{version}:{target}")


def select(game: int, version: int) -> str:
    return f"s:{game}:{version}"


def pick(game: int, version: int, action: str) -> str:
    return _checked(f"k:{game}:{version}:{action}")


def hand(game: int) -> str:
    return f"h:{game}"


def lobby(game: int, verb: str) -> str:
    return f"l:{game}:{verb}"


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_ID:
        raise ValueError(f"custom_id too long ({len(custom_id)} > {MAX_ID}): {custom_id!r}")
    return custom_id
