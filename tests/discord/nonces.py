"""Discord's nonce check emulated for the presenter's posts (simcord ignores nonces)."""

from __future__ import annotations

from typing import Any

import aiohttp


def emulate_nonces(presenter: Any, lose_first: str | None = None) -> list[bool]:
    """Posts through ``presenter.post`` as Discord makes them: a nonce seen before is answered
    with the message it made (Discord keeps them for a few minutes). With ``lose_first``, the
    first post containing it is made but its answer lost (a dropped connection). True in the
    list until that post happened."""
    post = presenter.post
    made: dict[str, int] = {}  # nonce -> message
    lost = [True]

    async def post_with_nonces(session: Any, text: str, *args: Any, **kwargs: Any) -> int:
        nonce = kwargs.get("nonce")
        if nonce is not None and nonce in made:
            return made[nonce]
        message_id = await post(session, text, *args, **kwargs)
        if nonce is not None:
            made[nonce] = message_id
        if lose_first is not None and lost and lose_first in text:
            lost.clear()
            raise aiohttp.ServerDisconnectedError()  # made, but the answer never came
        return message_id

    presenter.post = post_with_nonces
    return lost
