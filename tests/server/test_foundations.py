"""Settings, migrations, table configs, the protocol parser, commitments, tokens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from server_testkit import PASSWORD
from sqlalchemy import inspect

from croupier.errors import ConfigError, IllegalActionError
from croupier.server.accounts import service as accounts
from croupier.server.accounts.models import AuthToken, Role
from croupier.server.db import Database, downgrade, migrate
from croupier.server.errors import (
    ERROR_MAP,
    AuthenticationError,
    InvalidRequestError,
    PermissionDeniedError,
    error_body,
    error_frame,
    status_and_code,
)
from croupier.server.models import Base
from croupier.server.settings import Settings
from croupier.server.tables.config import load_tables, parse_tables
from croupier.server.tables.fairness import commit, verify
from croupier.server.tables.protocol import BetMessage, parse_client_message

UserFactory = Callable[..., int]


def test_settings_default_to_a_sqlite_file_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CROUPIER_DATABASE_URL", raising=False)
    settings = Settings()
    assert settings.database_url == f"sqlite:///{tmp_path / 'croupier.db'}"
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    monkeypatch.setenv("CROUPIER_PORT", "9001")
    monkeypatch.setenv("CROUPIER_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert Settings().port == 9001
    assert Settings().database_url == "postgresql+psycopg://u@h/db"


def test_migrations_build_exactly_the_models(db: Database) -> None:
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        tables = set(inspect(conn).get_table_names())
    assert diff == []
    assert set(Base.metadata.tables) <= tables
    migrate(db.engine)  # applying again is a no-op


def test_migrations_downgrade_and_upgrade(db: Database) -> None:
    downgrade(db.engine, revision="base")
    with db.engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
    migrate(db.engine)
    with db.engine.connect() as conn:
        assert "postings" in inspect(conn).get_table_names()


def test_default_tables_ship_in_the_package() -> None:
    tables = {t.name: t for t in load_tables()}
    assert set(tables) == {"uth-casino", "uth-live", "holdem-nl", "russian", "caribbean"}
    assert tables["uth-casino"].rules["max_seats"] == 6
    assert tables["uth-live"].rules["shared_hand"] is True


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not [toml", "not valid TOML"),
        ("x = 1", r"no \[\[tables\]\]"),
        ('[[tables]]\nname = "A"\ngame = "uth"', "name"),
        ('[[tables]]\nname = "a"\ngame = "uth"\nbetting_seconds = -1', "betting_seconds"),
        ('[[tables]]\nname = "a"\ngame = "uth"\ncolour = "red"', "colour"),
        ('[[tables]]\nname = "a"\ngame = "uth"\n[[tables]]\nname = "a"\ngame = "uth"', "twice"),
    ],
)
def test_bad_table_files(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_tables(text)


def test_a_missing_tables_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_tables(tmp_path / "nope.toml")


def test_bad_uth_rules_are_refused_at_start(tmp_path: Path) -> None:
    from croupier.server.db import Database as _Db
    from croupier.server.tables.manager import TableManager

    tables = parse_tables('[[tables]]\nname = "a"\ngame = "uth"\n[tables.rules]\nante_min = -5')
    db = _Db(f"sqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(ConfigError, match=r"table 'a'.*ante_min"):
        TableManager(tables, db=db)
    db.dispose()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "not valid json"),
        ("{", "not valid json"),
        (b"\xff\xfe", "not valid json"),
        ("42", "not a json object"),
        ('{"type": 5}', "unknown message type 5"),
        ('{"type": "bet", "key": "k", "bets": {"ante": -1}}', "bet.bets.ante"),
        ('{"type": "bet", "key": "", "bets": {}}', "bet.key"),
        ('{"type": "bet", "key": "k", "bets": {"Ante!": 1}}', "bet.bets"),
        ('{"type": "bet", "key": "k", "bets": {"ante": true}}', "valid integer"),
        ('{"type": "act", "action": "check", "seat": -1}', "act.seat"),
        ('{"type": "act", "action": "check", "surprise": 1}', "extra inputs"),
        ('{"type": "resync", "last_seq": "9"}', "resync.last_seq"),
        ('{"type": "ping", "v": "1"}', "not supported"),
    ],
)
def test_protocol_refuses_malformed_frames(raw: str | bytes, message: str) -> None:
    with pytest.raises(InvalidRequestError, match=message):
        parse_client_message(raw)


def test_protocol_parses_good_frames() -> None:
    bet = parse_client_message('{"type": "bet", "id": 3, "key": "k1", "bets": {"ante": 100}}')
    assert isinstance(bet, BetMessage) and bet.bets == {"ante": 100} and bet.id == 3


def test_commitments_bind_the_deck_and_salt() -> None:
    digest = commit(salt="ab", deck="As Kd")
    assert len(digest) == 64 and verify(salt="ab", deck="As Kd", commitment=digest)
    assert not verify(salt="ab", deck="Kd As", commitment=digest)
    assert not verify(salt="ac", deck="As Kd", commitment=digest)


def test_every_error_class_has_one_status() -> None:
    assert status_and_code(AuthenticationError("x")) == (401, "unauthenticated")
    assert status_and_code(PermissionDeniedError("x")) == (403, "forbidden")
    assert len({cls for cls, _, _ in ERROR_MAP}) == len(ERROR_MAP)
    frame = error_frame(InvalidRequestError("amount -1 is not positive"), ref="r1")
    assert frame == {
        "type": "error",
        "code": "invalid_request",
        "message": "amount -1 is not positive",
        "ref": "r1",
    }


def test_errors_carry_a_reason_and_params_for_the_client_to_word() -> None:
    exc = IllegalActionError(
        "ante 50 is outside the table limits 100..10000",
        reason="bet_out_of_limits",
        params={"spot": "ante", "amount": 50, "min": 100, "max": 10000},
    )
    frame = error_frame(exc, ref=7)
    assert frame["code"] == "illegal_action"
    assert frame["reason"] == "bet_out_of_limits"
    assert frame["params"] == {"spot": "ante", "amount": 50, "min": 100, "max": 10000}
    body = error_body("illegal_action", str(exc), exc=exc)["error"]
    assert (body["reason"], body["params"]["max"]) == ("bet_out_of_limits", 10000)
    # Without a reason, nothing is added: the class's code is all a client has.
    assert "reason" not in error_frame(IllegalActionError("no"))


def test_tokens_expire_and_revoke(db: Database, make_user: UserFactory) -> None:
    user_id = make_user("alice")
    with db.session() as session:
        user = accounts.get_user(session, user_id=user_id)
        issued = accounts.issue_token(session, user=user, secret="s", ttl_seconds=60)
        assert accounts.user_for_token(session, token=issued.token, secret="s").id == user_id
        with pytest.raises(AuthenticationError):
            accounts.user_for_token(session, token=issued.token, secret="other-secret")
        row = session.query(AuthToken).one()
        row.expires_at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
        session.flush()
        with pytest.raises(AuthenticationError, match="expired"):
            accounts.user_for_token(session, token=issued.token, secret="s")
        fresh = accounts.issue_token(session, user=user, secret="s", ttl_seconds=60)
        accounts.revoke_token(session, token=fresh.token, secret="s")
        with pytest.raises(AuthenticationError):
            accounts.user_for_token(session, token=fresh.token, secret="s")


def test_operator_role(db: Database, make_user: UserFactory) -> None:
    player = make_user("alice")
    operator = make_user("boss", role=Role.OPERATOR)
    with db.session() as session:
        with pytest.raises(PermissionDeniedError):
            accounts.require_operator(accounts.get_user(session, user_id=player))
        assert accounts.require_operator(accounts.get_user(session, user_id=operator))
        again = accounts.ensure_operator(session, username="alice", password=PASSWORD)
        assert again.role == Role.OPERATOR.value
