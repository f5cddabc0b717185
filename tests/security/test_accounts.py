"""Issue 13, item 10: no guessable password, no look-alike username.

Over HTTP against a real server: passwords shorter than 10 characters or guessable (the
common-password lists, the username, the site's own words) are refused with the reason shown
to the person; a username that is another one under Unicode NFKC and case folding (``Boss``
beside the operator ``boss``, full-width letters) is taken. A database from before the rule,
holding two names that collide, migrates (``0002_security``): both accounts keep their money
and log in with their own spelling.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from sec_testkit import PASSWORD, SecServer, ServerFactory, unique

from croupier.server.db import Database, migrate

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("12345678", "10 to 256 characters"),
        ("password", "10 to 256 characters"),
        (" " * 10, "too easy to guess"),
        ("password123", "too easy to guess"),
        ("1234567890", "too easy to guess"),
        ("qwertyuiop", "too easy to guess"),
        ("croupier2024", "too easy to guess"),
        ("{name}{name}", "too easy to guess"),
    ],
)
def test_guessable_passwords_are_refused_with_the_reason(
    shared: SecServer, password: str, reason: str
) -> None:
    name = unique("weak")
    response = shared.http.post(
        "/api/auth/register",
        json={"username": name, "password": password.format(name=name)},
    )
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and reason in error["message"]
    assert shared.http.get("/api/tables").status_code == 200


def test_a_strong_password_is_accepted(shared: SecServer) -> None:
    name = unique("strong")
    ok = shared.http.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert ok.status_code == 201


@pytest.mark.parametrize("lookalike", ["Boss", "BOSS", "ｂｏｓｓ", "Ｂｏｓｓ"])
def test_a_lookalike_of_a_name_is_taken(shared: SecServer, lookalike: str) -> None:
    taken = shared.http.post(
        "/api/auth/register", json={"username": lookalike, "password": PASSWORD}
    )
    assert taken.status_code == 409, taken.text
    assert taken.json()["error"]["code"] == "conflict"


def test_a_name_logs_in_in_any_case(shared: SecServer) -> None:
    player = shared.player("Mixed")
    for spelling in (player.name, player.name.upper(), player.name.lower()):
        response = shared.http.post(
            "/api/auth/login", json={"username": spelling, "password": PASSWORD}
        )
        assert response.status_code == 200 and response.json()["user"]["id"] == player.id


def test_colliding_names_from_before_the_rule_migrate(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Database(url)
    migrate(old.engine, revision="0001")
    hashed = PasswordHasher().hash(PASSWORD)
    with old.engine.begin() as conn:
        for name in ("alice", "Alice", "ALICE", "bob"):
            conn.execute(
                sa.text(
                    "INSERT INTO users (username, password_hash, role, disabled, created_at) "
                    "VALUES (:u, :h, 'player', 0, CURRENT_TIMESTAMP)"
                ),
                {"u": name, "h": hashed},
            )
    old.dispose()
    server = make_server(url=url)  # migrates at start
    ids = {}
    for name in ("alice", "Alice", "ALICE", "bob"):
        response = server.http.post(
            "/api/auth/login", json={"username": name, "password": PASSWORD}
        )
        assert response.status_code == 200, (name, response.text)
        assert response.json()["user"]["username"] == name
        ids[name] = response.json()["user"]["id"]
    assert len(set(ids.values())) == 4
    # Any other spelling reaches the first account; new look-alikes are refused.
    other = server.http.post("/api/auth/login", json={"username": "aLiCe", "password": PASSWORD})
    assert other.json()["user"]["id"] == ids["alice"]
    again = server.http.post("/api/auth/register", json={"username": "alIce", "password": PASSWORD})
    assert again.status_code == 409
    with Database(url).engine.connect() as conn:
        keys = dict(conn.execute(sa.text("SELECT username, username_key FROM users")).all())
    assert keys["alice"] == "alice" and keys["bob"] == "bob"
    assert keys["Alice"] == f"alice~{ids['Alice']}" and keys["ALICE"] == f"alice~{ids['ALICE']}"
