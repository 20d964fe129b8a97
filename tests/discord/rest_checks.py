"""Discord's own checks that the simulator lacks, added in front of every REST call the bot
makes in a test (``simcord.http.router.dispatch``): a check looks at the request and raises a
``BackendError`` to refuse it, as Discord would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from simcord.backend.errors import BackendError
from simcord.http import router

# (the simulated backend, method, path, JSON body or None): raises to refuse the request.
Check = Callable[[Any, str, str, Any], None]


def add_check(monkeypatch: pytest.MonkeyPatch, check: Check) -> None:
    """Run ``check`` before each request; checks added later run first."""
    dispatch = router.dispatch

    def checked(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        check(backend, method, path, kwargs.get("json"))
        return dispatch(backend, method, path, *args, **kwargs)

    monkeypatch.setattr(router, "dispatch", checked)


def invalid_form(field: str, message: str) -> BackendError:
    """Discord's 400 / 50035 "Invalid Form Body" for one field."""
    return BackendError(400, 50035, "Invalid Form Body", errors={field: message})


def writes_message(method: str, body: Any) -> bool:
    """A request that sends a message's content (a post, an edit, an answer)."""
    return method in ("POST", "PATCH") and body is not None
