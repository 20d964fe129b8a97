"""Payloads real Discord refuses (or mangles) that the simulator accepts: none, kept as a guard.

simcord checks most of Discord's message limits itself (content 2000, embed sizes, rows, select
options, custom ids, labels). What it lets through is checked here by ``api_problems``, which
wraps ``simcord.http.router.dispatch`` as tests/discord/conftest.py does for unicode emojis,
and records (never refuses) every rule of Discord's API a request breaks; each test then says
which of them a player's flow produced. Sources for the rules:

- Embed object, "Embed Limits": field ``name`` and ``value`` are required (an empty or
  whitespace-only one is refused, 50035 BASE_TYPE_REQUIRED); thumbnail/image ``url`` only
  http(s) and attachments.
- Message Components, Button: "Non-link buttons must have a custom_id, and cannot have a
  url"; a button shows a label or an emoji (50035 when it has neither).
- String Select: ``min_values``/``max_values`` at most the number of options
  (Discord: "Invalid Form Body ... max_values ... must be less than or equal to ...").
- Emoji object: a custom emoji is ``{id, name}`` with a name of 2-32 of ``[A-Za-z0-9_]``.
- Allowed Mentions: ``parse: ["users"]`` together with ``users`` is refused (mutually
  exclusive), at most 100 ids.
- Create Message: ``nonce`` at most 25 characters.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from simcord.backend.errors import BackendError
from simcord.http import router

from tests.discord.driver import Table, controls

MESSAGE_PATHS = (
    re.compile(r"^/channels/\d+/messages(/\d+)?$"),
    re.compile(r"^/webhooks/\d+/[^/]+(/messages/[^/]+)?$"),
)
CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
# Markup Discord draws in message text but shows raw where no markdown renders (a button's
# label, a select's options and placeholder, an embed's footer): a face, a mention, a
# channel, a timestamp, bold, a masked link.
RAW_MARKUP = re.compile(r"<a?:\w+:\d+>|<@[!&]?\d+>|<#\d+>|<t:-?\d+(:\w)?>|\*\*|\]\(https?://")


def _raw(text: Any, where: str) -> list[str]:
    if isinstance(text, str) and (m := RAW_MARKUP.search(text)):
        return [f"{where} shows {m.group(0)!r} raw: {text!r}"]
    return []


def message_problems(body: dict[str, Any]) -> list[str]:
    """The rules of Discord's API this message body breaks that simcord lets through."""
    found: list[str] = []
    for i, embed in enumerate(body.get("embeds") or []):
        for j, fld in enumerate(embed.get("fields") or []):
            for key in ("name", "value"):
                text = fld.get(key)
                if not isinstance(text, str) or not text.strip():
                    found.append(f"embeds.{i}.fields.{j}.{key} empty: {text!r}")
        for key in ("thumbnail", "image"):
            url = (embed.get(key) or {}).get("url")
            if url is not None and not re.match(r"^(https?|attachment)://", str(url)):
                found.append(f"embeds.{i}.{key}.url {url!r}")
        found += _raw((embed.get("footer") or {}).get("text"), f"embeds.{i}.footer.text")
        found += _raw((embed.get("author") or {}).get("name"), f"embeds.{i}.author.name")
        colour = embed.get("color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            found.append(f"embeds.{i}.color {colour!r}")
    for r, row in enumerate(body.get("components") or []):
        for c, item in enumerate(row.get("components") or []):
            where = f"components.{r}.components.{c}"
            found += _raw(item.get("label"), f"{where}.label")
            found += _raw(item.get("placeholder"), f"{where}.placeholder")
            emoji = item.get("emoji")
            if emoji and emoji.get("id") and not EMOJI_NAME.match(str(emoji.get("name") or "")):
                found.append(f"{where}.emoji.name {emoji.get('name')!r}")
            if item.get("type") == 2:
                if item.get("style") != 5 and not item.get("label") and not item.get("emoji"):
                    found.append(f"{where} button without label or emoji")
            if item.get("type") == 3:
                options = item.get("options") or []
                if item.get("max_values", 1) > len(options):
                    found.append(
                        f"{where}.max_values {item.get('max_values')} > {len(options)} options"
                    )
                if item.get("min_values", 1) > len(options):
                    found.append(
                        f"{where}.min_values {item.get('min_values')} > {len(options)} options"
                    )
                for o, option in enumerate(options):
                    found += _raw(option.get("label"), f"{where}.options.{o}.label")
                    found += _raw(option.get("description"), f"{where}.options.{o}.description")
                    emoji = option.get("emoji")
                    if emoji and emoji.get("id") and not EMOJI_NAME.match(str(emoji.get("name"))):
                        found.append(f"{where}.options.{o}.emoji.name {emoji.get('name')!r}")
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict):
        parse = mentions.get("parse") or []
        if "users" in parse and mentions.get("users"):
            found.append("allowed_mentions: parse users and users both given")
        if "roles" in parse and mentions.get("roles"):
            found.append("allowed_mentions: parse roles and roles both given")
        if len(mentions.get("users") or []) > 100:
            found.append("allowed_mentions.users: more than 100")
    nonce = body.get("nonce")
    if nonce is not None and len(str(nonce)) > 25:
        found.append(f"nonce {nonce!r} longer than 25")
    return found


@pytest.fixture
def api_problems(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every request the bot made that real Discord would refuse, as 'METHOD path: problem'."""
    found: list[str] = []
    dispatch = router.dispatch

    def checked(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        if method in ("POST", "PATCH") and isinstance(body, dict):
            target = body
            if CALLBACK.match(path):
                target = body.get("data") or {}
            if CALLBACK.match(path) or any(p.match(path) for p in MESSAGE_PATHS):
                found.extend(f"{method} {path}: {p}" for p in message_problems(target))
        try:
            return dispatch(backend, method, path, *args, **kwargs)
        except BackendError as error:
            # simcord's own checks: a refusal the bot may swallow (``except HTTPException``).
            if error.status == 400:
                found.append(f"{method} {path}: refused {error.code} {error}")
            raise

    monkeypatch.setattr(router, "dispatch", checked)
    return found


# -- application commands: simcord stores whatever the sync sends --------------------------------
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord: ^[-_\p{L}\p{N}...]{1,32}$, lowercase


def command_problems(option: dict[str, Any], path: str) -> list[str]:
    """Discord's rules for a command or option (Application Commands docs): names 1-32
    lowercase, descriptions 1-100, at most 25 options and 25 choices (names and string
    values 1-100), required options before optional ones."""
    found: list[str] = []
    name, about = option.get("name", ""), option.get("description", "")
    if not COMMAND_NAME.match(name) or name != name.lower():
        found.append(f"{path}: name {name!r}")
    if not 1 <= len(about) <= 100:
        found.append(f"{path}: description of {len(about)} characters")
    options = option.get("options") or []
    if len(options) > 25:
        found.append(f"{path}: {len(options)} options")
    optional_seen = False
    for sub in options:
        where = f"{path} {sub.get('name')}"
        if sub.get("type") not in (1, 2):
            if sub.get("required") and optional_seen:
                found.append(f"{where}: required after an optional option")
            optional_seen = optional_seen or not sub.get("required")
        choices = sub.get("choices") or []
        if len(choices) > 25:
            found.append(f"{where}: {len(choices)} choices")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100:
                found.append(f"{where}: choice name {choice['name']!r}")
            if isinstance(choice["value"], str) and not 1 <= len(choice["value"]) <= 100:
                found.append(f"{where}: choice value {choice['value']!r}")
        found += command_problems(sub, where)
    return found


def command_size(option: dict[str, Any]) -> int:
    """Characters Discord counts towards a command's 4000: names, descriptions, choices."""
    size = len(option.get("name", "")) + len(option.get("description", ""))
    for choice in option.get("choices") or []:
        size += len(choice["name"]) + len(str(choice["value"]))
    return size + sum(command_size(sub) for sub in option.get("options") or [])


async def test_synced_commands_keep_discords_rules(simcord_env) -> None:
    """Kept passing (a guard): simcord accepts any command payload, real Discord refuses the
    whole sync (400, 50035) for one bad name, description, choice or order, and then no
    slash command exists at all. A new option with a long description or a capital letter
    in its name would show only on real Discord."""
    await simcord_env.settle()
    synced = [
        e.json
        for e in simcord_env.backend.http_requests
        if e.method == "PUT" and e.path.endswith("/commands") and e.json
    ]
    assert synced, "no command sync seen"
    problems = [
        p for command in synced[-1] for p in command_problems(command, "/" + command["name"])
    ]
    problems += [
        f"/{c['name']}: {command_size(c)} characters" for c in synced[-1] if command_size(c) > 4000
    ]
    assert len(synced[-1]) <= 100
    assert not problems, problems


async def test_a_played_game_sends_nothing_discord_would_refuse(simcord_env, api_problems) -> None:
    """Kept passing (a guard): what simcord lets through (empty embed fields, buttons with
    neither label nor emoji, selects asking for more values than they offer, bad custom emoji
    names, raw markup on labels and footers, malformed allowed_mentions, long nonces) and
    what it refuses that the bot would swallow, over a table, the picker, DMs and /rules."""
    table = await Table.start(simcord_env, "uno", 3, seed=4)
    for _ in range(4):
        await table.some_move(via="picker")
    first = table.members[next(iter(table.members))]
    answer = await first.slash(table.channel, "rules", game="uno")
    await first.select(answer.response, ["3"], custom_id=controls(answer.response)[0].custom_id)
    assert not api_problems, api_problems
