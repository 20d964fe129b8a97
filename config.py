"""Settings from the environment and ``.env``; a missing or bad value stops the bot at start."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, fields
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_DATABASE = "data/cardtable.db"
DISCORD_GLOBAL_LIMIT = 50.0  # REST requests per second Discord allows a bot, all processes together


class ConfigError(Exception):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: str = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    lobby_timeout_minutes: int = 30
    bot_pause: float = 2.0  # seconds a bot waits before its move, so people can follow
    uno_grace: float = 5.0  # seconds bots wait while a member may still call or catch UNO
    nudge_after: float = 20.0  # seconds before a member is reminded that it is their turn
    database_timeout: float = 5.0  # seconds to open, migrate and write the database at start
    card_emojis: bool = True  # draw cards as the bot's own emojis (uploaded once)
    dm_hands: bool = True  # keep each player's hand in a DM (the playground shows none)
    message_events: bool = False  # receive message events (the playground's page follows them)
    database_url: str = ""  # postgresql://... (PostgreSQL), or empty for SQLite at database_path
    database_pool_min: int = 1  # PostgreSQL connections kept open
    database_pool_max: int = 10  # PostgreSQL connections at most
    shard_count: int | None = None  # Discord shards in all (None: one process, no sharding)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all)
    clock_poll: float = 2.0  # seconds between looks for clocks other processes set (PostgreSQL)
    rest_per_second: float | None = None  # REST calls a second at most (None: see rest_budget)

    @property
    def database(self) -> str:
        """Where the games are kept: the PostgreSQL URL, or the SQLite file."""
        return self.database_url or self.database_path

    def rest_budget(self) -> float:
        """REST calls a second this process makes at most (0: no limit). By default its share
        of Discord's global limit: the part of the shards it runs."""
        if self.rest_per_second is not None:
            return self.rest_per_second
        if self.shard_count and self.shard_ids:
            return DISCORD_GLOBAL_LIMIT * len(self.shard_ids) / self.shard_count
        return DISCORD_GLOBAL_LIMIT


# Each timing's default, written once (in ``Settings``): what an unset variable means.
_DEFAULTS: dict[str, float] = {
    f.name: f.default for f in fields(Settings) if isinstance(f.default, float)
}


def read_dotenv(path: Path) -> dict[str, str]:
    """Minimal ``KEY=value`` reader (comments, blank lines, optional quotes)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    try:
        text = path.read_text(encoding="utf-8-sig")  # Windows editors' byte order mark too
    except UnicodeDecodeError:
        raise ConfigError(
            f"{path} is not UTF-8 text: save it again as UTF-8 (your editor's encoding option)."
        ) from None
    except OSError as error:
        raise ConfigError(f"{path} cannot be read: {error.strerror or error}.") from None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def _number(merged: dict[str, str], key: str, unit: str) -> float | None:
    """The setting as a number, None when unset (``unit`` names it in the error)."""
    raw = merged.get(key, "").strip()
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a number of {unit}, not {raw[:40]!r}.") from None


def _seconds(merged: dict[str, str], key: str, default: float, low: float, high: float) -> float:
    value = _number(merged, key, "seconds")
    if value is None:
        return default
    if not low <= value <= high:
        raise ConfigError(f"{key} must be between {low:g} and {high:g} seconds, not {value:g}.")
    return value


def _digits(raw: str) -> bool:
    """0-9 only: ``str.isdigit`` also takes "²" and other digits ``int`` refuses."""
    return raw.isascii() and raw.isdigit()


def _whole(merged: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    raw = merged.get(key, "").strip()
    if not raw:
        return default
    if not _digits(raw) or not low <= int(raw) <= high:
        raise ConfigError(f"{key} must be a whole number from {low} to {high}, not {raw[:40]!r}.")
    return int(raw)


def _rate(merged: dict[str, str], key: str) -> float | None:
    value = _number(merged, key, "requests per second")
    if value is not None and not (value == 0 or 0.1 <= value <= 100_000):
        raise ConfigError(f"{key} must be 0 (no limit) or from 0.1 to 100000, not {value:g}.")
    return value


def _database(merged: dict[str, str]) -> tuple[str, str]:
    """(SQLite path, PostgreSQL URL): DATABASE_URL wins over DATABASE_PATH."""
    path = merged.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE
    url = merged.get("DATABASE_URL", "").strip()
    if not url:
        return path, ""
    if url.startswith(("postgresql://", "postgres://")):
        _readable_url(url)
        return path, url
    if url.startswith("sqlite:///"):
        file = url.removeprefix("sqlite:///")
        if not file.strip() or file.endswith("/"):
            raise ConfigError(
                f"DATABASE_URL {url[:60]!r} names no file: write sqlite:///data/cardtable.db."
            )
        return file, ""
    if "://" in url:
        scheme = url.split("://", 1)[0]
        raise ConfigError(
            f"DATABASE_URL must start with postgresql:// or sqlite:///, not {scheme[:20]!r}://."
        )
    return url, ""  # a plain path


def _readable_url(url: str) -> None:
    """A PostgreSQL URL that can be read (a typo is a setting's error, exit code 2, not a
    database that is down, which a restart policy would retry for ever). Never quoted: its
    password may be in it."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (reading it checks it: 1 to 65535)
    except ValueError:
        parts = None
    if parts is None or url.count("@") > 1 or ("@" in url and "@" not in parts.netloc):
        raise ConfigError(
            "DATABASE_URL cannot be read. Write postgresql://user:password@host:port/database, "
            "with a port from 1 to 65535, and any / # ? @ : in the password percent-encoded "
            "(%2F %23 %3F %40 %3A)."
        )


def _shards(merged: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count_raw = merged.get("SHARD_COUNT", "").strip()
    ids_raw = merged.get("SHARD_IDS", "").strip()
    if not count_raw:
        if ids_raw:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the number of shards in all).")
        return None, None
    count = _whole(merged, "SHARD_COUNT", 1, 1, 10_000)
    if not ids_raw:
        return count, None
    try:
        ids = tuple(sorted({int(part) for part in ids_raw.split(",") if part.strip()}))
    except ValueError:
        raise ConfigError(
            f"SHARD_IDS must be shard numbers separated by commas (like 0,1), not {ids_raw[:40]!r}."
        ) from None
    if not ids or any(not 0 <= i < count for i in ids):
        raise ConfigError(f"SHARD_IDS must be numbers from 0 to {count - 1} (SHARD_COUNT {count}).")
    return count, ids


_TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9._-]+")


def load_settings(
    env: dict[str, str] | None = None,
    dotenv: Path | None = Path(".env"),
    need_token: bool = True,
    playground: bool = False,
) -> Settings:
    """Real environment variables win over ``.env``. The playground needs no token, and
    ``playground`` leaves out what it replaces anyway (the database, shards, the server to
    sync commands to): a production .env with those set wrongly does not stop it."""
    merged = read_dotenv(dotenv) if dotenv is not None else {}
    merged.update(os.environ if env is None else env)
    if playground:
        for key in ("DATABASE_PATH", "DATABASE_URL", "DATABASE_POOL_MIN", "DATABASE_POOL_MAX"):
            merged.pop(key, None)
        for key in ("DATABASE_TIMEOUT_SECONDS", "CLOCK_POLL_SECONDS"):
            merged.pop(key, None)
        for key in ("SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID"):
            merged.pop(key, None)

    token = merged.get("DISCORD_TOKEN", "").strip()
    if not token and not need_token:
        token = "playground"
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Copy .env.example to .env and paste your bot token "
            "(Discord Developer Portal -> your application -> Bot -> Reset Token)."
        )
    if need_token and not _TOKEN_CHARACTERS.fullmatch(token):
        # A space, quote or control character pasted with it: aiohttp's traceback at login,
        # or Discord refusing it as wrong. The token itself is never printed.
        raise ConfigError(
            "DISCORD_TOKEN holds a space, quote or other character no token has (a token is "
            "letters, digits, dots, dashes and underscores, without 'Bot '). Copy it again from "
            "the Developer Portal (your application -> Bot -> Reset Token) into .env."
        )
    guild = merged.get("DEV_GUILD_ID", "").strip()
    if guild and not (_digits(guild) and 0 < int(guild) < 2**64):
        raise ConfigError(
            f"DEV_GUILD_ID must be a server id (digits only, at most 20), not {guild[:40]!r}."
        )
    level = merged.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    lobby = merged.get("LOBBY_TIMEOUT_MINUTES", "30").strip() or "30"
    if not _digits(lobby) or int(lobby) < 1:
        raise ConfigError(f"LOBBY_TIMEOUT_MINUTES must be a whole number >= 1, not {lobby!r}.")
    faces = merged.get("CARD_EMOJIS", "on").strip().lower() or "on"
    if faces not in ("on", "off", "true", "false", "1", "0", "yes", "no"):
        raise ConfigError(f"CARD_EMOJIS must be on or off, not {faces[:20]!r}.")
    path, url = _database(merged)
    pool_min = _whole(merged, "DATABASE_POOL_MIN", 1, 0, 1000)
    pool_max = _whole(merged, "DATABASE_POOL_MAX", 10, 1, 1000)
    if pool_min > pool_max:
        raise ConfigError(
            f"DATABASE_POOL_MIN ({pool_min}) cannot be larger than DATABASE_POOL_MAX ({pool_max})."
        )
    shard_count, shard_ids = _shards(merged)
    return Settings(
        token=token,
        database_path=path,
        database_url=url,
        database_pool_min=pool_min,
        database_pool_max=pool_max,
        shard_count=shard_count,
        shard_ids=shard_ids,
        rest_per_second=_rate(merged, "REST_PER_SECOND"),
        dev_guild_id=int(guild) if guild else None,
        log_level=level,
        lobby_timeout_minutes=int(lobby),
        bot_pause=_seconds(merged, "BOT_PAUSE_SECONDS", _DEFAULTS["bot_pause"], 0, 60),
        uno_grace=_seconds(merged, "UNO_GRACE_SECONDS", _DEFAULTS["uno_grace"], 0, 60),
        nudge_after=_seconds(merged, "NUDGE_AFTER_SECONDS", _DEFAULTS["nudge_after"], 1, 3600),
        database_timeout=_seconds(
            merged, "DATABASE_TIMEOUT_SECONDS", _DEFAULTS["database_timeout"], 0.5, 120
        ),
        card_emojis=faces in ("on", "true", "1", "yes"),
        clock_poll=_seconds(merged, "CLOCK_POLL_SECONDS", _DEFAULTS["clock_poll"], 0.1, 300),
    )
