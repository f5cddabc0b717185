"""The walk of one stake through the server (issue 26): which of croupier's files and
functions one UTH Ante and one Russian Poker ``exchange`` pass through, from the frame the
browser sends to the acknowledgement it gets back, with the ledger's transaction between.

The whole application runs in this process (``create_app`` under Starlette's TestClient, on
SQLite in a temporary directory, a manual clock) and a profiler hook on every thread records
each call of a function of ``src/croupier`` while the one request is in flight; it reports:

- ``files`` and ``functions``: the distinct modules and functions called (a comprehension
  counted as the function it is in, as Python 3.12 inlines it);
- ``validation_points``: those functions whose source raises an error (a place that can
  refuse the request);
- ``record_shapes``: the distinct croupier types handed from function to function (the
  arguments and return values, ``self`` and enums left out) -- the shapes the stake takes.

That is everything the request runs (the socket, the session, metrics, the views broadcast).
``stake`` narrows it to the stake itself, as issue 26 counted it ("a stake crosses about 24
files in about 10 shapes"): the stake is an amount no other number of the walk has
(:data:`STAKE`, minor units), and a function is on its path when one of its arguments (``self``
left out) or its return value holds that amount, directly or in a field, an item or an element
(three levels deep; the Ante or, at UTH, the Ante and the Blind together); its shapes are the
croupier types that hold it.

It imports croupier from ``--checkout``'s ``src`` (and its test kit from ``tests/server``),
so the same command measures two versions side by side:

    .venv/bin/python benchmarks/money_walk.py
    .venv/bin/python benchmarks/money_walk.py --checkout /path/to/an/older/checkout
"""

from __future__ import annotations

import argparse
import enum
import inspect
import json
import sys
import tempfile
import threading
import uuid
from collections import defaultdict
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STAKE = 137
"""The walk's Ante (and so Russian Poker's exchange fee), minor units: a number nothing else
carries; UTH's Ante also holds a Blind of the same size, so the stake held is twice it."""
AMOUNTS = frozenset({STAKE, 2 * STAKE})


def _fields(value: Any) -> list[Any]:
    """What a value holds: a mapping's values, a sequence's items, an object's fields."""
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    names = getattr(type(value), "__struct_fields__", None) or getattr(
        type(value), "__dataclass_fields__", None
    )
    if names is None:
        slots = getattr(type(value), "__slots__", ())
        names = (slots,) if isinstance(slots, str) else slots
    out = [getattr(value, name, None) for name in names or ()]
    if hasattr(value, "__dict__") and not isinstance(value, type):
        out.extend(vars(value).values())
    return out


def _holds(value: Any, depth: int = 3) -> list[str] | None:
    """The croupier types on the way to :data:`STAKE` inside ``value`` (``None``: not there)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return [] if abs(value) in AMOUNTS else None
    if depth == 0 or isinstance(value, str | bytes | float | type) or callable(value):
        return None
    for inner in _fields(value):
        found = _holds(inner, depth - 1)
        if found is not None:
            kind = type(value)
            module = getattr(kind, "__module__", "") or ""
            if module.startswith("croupier.") and not issubclass(kind, enum.Enum):
                return [f"{module}.{kind.__qualname__}", *found]
            return found
    return None


_INLINE = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})
"""Code objects that are not functions of their own: counted as the function around them."""


class Walk:
    """The croupier calls made while :attr:`active`."""

    def __init__(self) -> None:
        self.active = False
        self.reset()

    def reset(self) -> None:
        self.functions: dict[tuple[str, str], Any] = {}
        self.shapes: dict[str, int] = defaultdict(int)
        self.stake_functions: dict[tuple[str, str], Any] = {}
        self.stake_shapes: set[str] = set()

    def _stake(self, key: tuple[str, str], code: Any, value: Any) -> None:
        try:
            found = _holds(value)
        except Exception:  # a property that raises: not the stake
            return
        if found is not None and key in self.functions:
            self.stake_functions.setdefault(key, self.functions[key])
            self.stake_shapes.update(found)

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.active:
            return
        code = frame.f_code
        path = code.co_filename
        if "/src/croupier/" not in path:
            return
        module = path.split("/src/", 1)[1]
        name = code.co_qualname
        inner = code.co_name in _INLINE
        if inner:  # a comprehension is its function's (Python 3.12 inlines it, PEP 709)
            name = name.removesuffix(f".<locals>.{code.co_name}")
        key = (module, name)
        if event == "call":
            if not inner:
                self.functions.setdefault(key, code)
            names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            for name in names:
                if name not in ("self", "cls"):
                    self._shape(frame.f_locals.get(name))
                    self._stake(key, code, frame.f_locals.get(name))
        elif event == "return":
            self._shape(arg)
            self._stake(key, code, arg)

    def _shape(self, value: Any) -> None:
        if isinstance(value, list | tuple) and value:
            value = value[0]
        kind = type(value)
        module = getattr(kind, "__module__", "") or ""
        if module.startswith("croupier.") and not issubclass(kind, enum.Enum):
            self.shapes[f"{module}.{kind.__qualname__}"] += 1

    def report(self) -> dict[str, Any]:
        stake = _counts(self.stake_functions, self.stake_shapes)
        return {**_counts(self.functions, set(self.shapes)), "stake": stake}


def _counts(functions: dict[tuple[str, str], Any], shapes: set[str]) -> dict[str, Any]:
    files = sorted({module for module, _ in functions})
    raising = []
    for (module, name), code in sorted(functions.items()):
        try:
            source = inspect.getsource(code)
        except (OSError, TypeError):
            continue
        if "raise " in source:
            raising.append(f"{module}:{name}")
    return {
        "files": len(files),
        "functions": len(functions),
        "validation_points": len(raising),
        "record_shapes": len(shapes),
        "file_list": files,
        "function_list": sorted(f"{module}:{name}" for module, name in functions),
        "raising": raising,
        "shape_list": sorted(shapes),
    }


def _until(ws: Any, predicate: Any) -> dict[str, Any]:
    while True:
        frame = ws.receive_json()
        frames = frame if isinstance(frame, list) else [frame]
        for one in frames:
            if predicate(one):
                return dict(one)


def _request(walk: Walk, ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` sent and its answer read, the walk recording meanwhile."""
    ref = uuid.uuid4().hex[:8]
    walk.active = True
    try:
        ws.send_json({**message, "id": ref})
        return _until(ws, lambda f: f.get("ref") == ref)
    finally:
        walk.active = False


def run(checkout: Path) -> dict[str, Any]:
    sys.path[:0] = [str(checkout / "src"), str(checkout / "tests" / "server")]
    from argon2 import PasswordHasher
    from server_testkit import Server, ShoeStack, make_settings, table_ws
    from starlette.testclient import TestClient

    from croupier.server.accounts import service
    from croupier.server.app import create_app
    from croupier.server.tables.clock import ManualClock
    from croupier.server.tables.config import TableConfig

    service._HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    timers = {"betting_seconds": 30, "decision_seconds": 30, "pause_seconds": 0}
    tables = [
        TableConfig(name="uth-walk", game="uth", rules={"max_seats": 6}, **timers),
        TableConfig(name="russian-walk", game="russian", **timers),
    ]
    here = Path(tempfile.mkdtemp(prefix="croupier-walk-"))
    settings = make_settings(f"sqlite:///{here / 'walk.db'}")
    clock, shoes = ManualClock(), ShoeStack()
    walk = Walk()
    threading.setprofile(walk.hook)
    sys.setprofile(walk.hook)
    results: dict[str, Any] = {}
    app = create_app(settings, tables=tables, clock=clock, shoe_factory=shoes)
    with TestClient(app) as client:
        server = Server(app=app, client=client, clock=clock, shoes=shoes, settings=settings)
        _, token = server.player("walker", credit=100_000)
        _, other = server.player("sitter", credit=100_000)
        with (
            table_ws(client, "uth-walk", other) as sitter,
            table_ws(client, "uth-walk", token) as ws,
        ):
            # a second seat that has not bet: the Ante does not close betting (no deal walked)
            _until(sitter, lambda f: f.get("type") == "state")
            sitter.send_json({"type": "join", "id": "s"})
            _until(sitter, lambda f: f.get("ref") == "s")
            _until(ws, lambda f: f.get("type") == "state")
            ws.send_json({"type": "join", "id": "j"})
            _until(ws, lambda f: f.get("ref") == "j")
            answer = _request(walk, ws, {"type": "bet", "key": "a1", "bets": {"ante": STAKE}})
            assert answer["type"] == "ack", answer
            results["uth_ante"] = walk.report()
        walk.reset()
        with table_ws(client, "russian-walk", token) as ws:
            _until(ws, lambda f: f.get("type") == "state")
            ws.send_json({"type": "join", "id": "j"})
            _until(ws, lambda f: f.get("ref") == "j")
            ws.send_json({"type": "bet", "id": "b", "key": "r1", "bets": {"ante": STAKE}})
            _until(ws, lambda f: f.get("ref") == "b")
            ws.send_json({"type": "resync", "last_seq": 0, "id": "r"})
            state = _until(ws, lambda f: f.get("type") == "state" and f.get("view"))
            assert "exchange" in state["view"]["legal"], state
            box = next(b for b in state["view"]["boxes"] if b.get("cards"))
            message = {"type": "act", "action": "exchange", "cards": [box["cards"][0]]}
            decision = state["table"].get("decision")
            if decision:
                message["decision"] = decision
            answer = _request(walk, ws, message)
            assert answer["type"] == "ack", answer
            results["russian_exchange"] = walk.report()
    sys.setprofile(None)
    threading.setprofile(None)  # type: ignore[arg-type,unused-ignore]
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the croupier checkout")
    parser.add_argument("--lists", action="store_true", help="print the files, functions, shapes")
    args = parser.parse_args()
    results = run(args.checkout.resolve())
    for walk in results.values():
        if not args.lists:
            for part in (walk, walk["stake"]):
                for key in ("file_list", "function_list", "raising", "shape_list"):
                    part.pop(key)
    print(json.dumps({"checkout": str(args.checkout), **results}, indent=2))


if __name__ == "__main__":
    main()
