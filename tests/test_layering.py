"""Each layer imports only what its arrow in ARCHITECTURE.md allows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# layer -> top-level modules it must never import
FORBIDDEN = {
    "engine": {
        "discord",
        "aiosqlite",
        "asyncio",
        "sqlite3",
        "db",
        "cogs",
        "bot",
        "config",
        "time",
        "datetime",
        "os",
        "socket",
        "random",
    },
    "db": {"discord", "cogs", "bot"},
}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer: str) -> None:
    offences = {
        str(path.relative_to(ROOT)): sorted(imports(path) & FORBIDDEN[layer])
        for path in (ROOT / layer).rglob("*.py")
    }
    assert {k: v for k, v in offences.items() if v} == {}


def test_only_cogs_and_bot_import_discord() -> None:
    checked = [*ROOT.glob("*.py"), *(ROOT / "engine").rglob("*.py"), *(ROOT / "db").rglob("*.py")]
    offenders = [
        str(p.relative_to(ROOT)) for p in checked if p.name != "bot.py" and "discord" in imports(p)
    ]
    assert offenders == []


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nfrom db.store import Store\n")
    assert {"discord", "db"} <= imports(bad)
