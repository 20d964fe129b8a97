"""README's promises about exit codes, against bot.py run on its own (it stops at the
database, before Discord). Before, a DATABASE_URL that cannot be read (a port of 543200, an
unencoded / in the password) exited with 3, the code of a database that is down, so a restart
policy retried a typo for ever; now it is a setting's error, 2."""

from __future__ import annotations

import re
from pathlib import Path

from tests.process.test_startup_log import run_bot_py

README = Path(__file__).resolve().parents[2] / "README.md"


def test_a_malformed_database_url_exits_with_the_configuration_code() -> None:
    """README, Settings: "A malformed value stops the bot at once with a message naming it
    (exit code 2)", while exit code 3 is for a database that cannot be reached, "so a restart
    policy takes over". A DATABASE_URL that cannot even be read (here a port of 543200, one
    digit too many) now prints "Database error: DATABASE_URL (...) cannot be read. Check its
    form..." and exits with code 3: the owner's restart policy (docker --restart
    on-failure, systemd Restart=on-failure) restarts a bot that can never start, in a loop,
    as if the server were down. A URL that cannot be parsed is a malformed setting: it should
    be refused by config.py as "Configuration error: ..." with exit code 2."""
    text = README.read_text(encoding="utf-8")
    assert re.search(r"malformed value stops the bot at once.*\(exit code 2\)", text, re.S)
    code, output = run_bot_py(DATABASE_URL="postgresql://cardtable:pw@127.0.0.1:543200/db")
    assert "DATABASE_URL" in output, output[-1500:]
    assert code == 2, (code, output[-1500:])
