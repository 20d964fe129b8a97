"""The DATABASE_URL password never reaches the owner's console or logs, whatever it holds.

Each docstring tells what the owner read before the fix; the assertions are what holds now."""

from __future__ import annotations

from db.postgres import where
from tests.process.test_startup_log import run_bot_py

# A generated password holding both "@" and "/" (both common in password managers' output).
PASSWORD = "Zq@7wLmS9/kT2xV"
URL = f"postgresql://cardtable:{PASSWORD}@127.0.0.1/db"


def test_where_hides_a_password_holding_at_and_slash() -> None:
    """``where()`` (used in every database message and the new start-up line) checks only
    for an "@" that ended up outside the server part. With a password holding "@" *and*
    "/" (``Zq@7wLmS9/kT2xV``), the first "@" stays in the netloc, so the check passes and
    it returns "7wlms9:5432/kT2xV@127.0.0.1/db": both halves of the password. It should
    fall back to "the DATABASE_URL server" whenever an "@" follows the server part."""
    shown = where(URL)
    assert "kT2xV" not in shown and "7wlms9" not in shown.lower(), shown


def test_bad_url_message_does_not_print_the_password() -> None:
    """The owner who pastes such a password unencoded reads on the console: "Database
    error: Cannot connect to PostgreSQL at 7wlms9:5432/kT2xV@127.0.0.1/db: [Errno -2] Name
    or service not known" -- the password, in logs that get kept and shared. The message
    should name no part of the URL after the user name."""
    code, output = run_bot_py(DATABASE_URL=URL)
    assert code != 0, output
    assert "kT2xV" not in output and "7wlms9" not in output.lower(), output[-1500:]
