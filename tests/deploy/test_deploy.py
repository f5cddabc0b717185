"""Deployment: one install script for make and the Dockerfile, a compose file that only uses
real settings, and scripts/deploy-local.sh, which the slow test runs for real."""

from __future__ import annotations

import http.server
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest

from croupier.server.settings import Settings

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = [
    "install.sh",
    "deploy-local.sh",
    "install-postgres.sh",
    "install-chromium.sh",
    "install-redis.sh",
    "install-haproxy.sh",
    "cluster-local.sh",
]


@pytest.mark.parametrize("name", SCRIPTS)
def test_scripts_parse(name: str) -> None:
    path = REPO / "scripts" / name
    shell = "bash" if path.read_text().startswith("#!/usr/bin/env bash") else "sh"
    result = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    if shutil.which("shellcheck"):
        check = subprocess.run(["shellcheck", str(path)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout


def test_make_and_the_dockerfile_install_through_one_script() -> None:
    makefile = (REPO / "Makefile").read_text()
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "sh scripts/install.sh" in makefile
    assert re.search(r"^RUN sh scripts/install.sh", dockerfile, re.MULTILINE)
    for text in (makefile, dockerfile):
        assert "pip install" not in text  # every install step is the script's
    install = (REPO / "scripts" / "install.sh").read_text()
    pinned = "\"$VENV/bin/pip\" install -c constraints.txt -e '.[server,cli,plot,dask]' --group dev"
    assert pinned in install  # every install takes the versions constraints.txt pins
    assert 'CMD ["croupier", "serve"]' in dockerfile and "/healthz" in dockerfile
    deploy = (REPO / "scripts" / "deploy-local.sh").read_text()
    assert "scripts/install.sh" in deploy


def test_compose_runs_croupier_on_postgresql_with_real_settings() -> None:
    text = (REPO / "compose.yaml").read_text()
    assert "image: postgres:" in text and "build: ." in text
    assert "CROUPIER_DATABASE_URL: postgresql+psycopg://" in text
    names = set(re.findall(r"^\s+(CROUPIER_[A-Z_]+):", text, re.MULTILINE))
    known = {f"CROUPIER_{field.upper()}" for field in Settings.model_fields}
    assert names and names <= known, names - known
    assert "condition: service_healthy" in text


def _haproxy() -> str | None:
    found = shutil.which("haproxy")
    return found or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None)


@pytest.fixture(scope="module")
def haproxy() -> str:
    """The haproxy binary, installed with ``scripts/install-haproxy.sh`` where it is missing
    (as ``scripts/cluster-local.sh`` does): on a fresh machine these checks run, not skip."""
    if _haproxy() is None:
        # One apt-get at a time: the other test workers may be installing too.
        subprocess.run(
            ["flock", "/tmp/croupier-apt.lock", "sh", str(REPO / "scripts" / "install-haproxy.sh")],
            check=True,
        )
    found = _haproxy()
    if found is None:
        pytest.fail("haproxy could not be installed (scripts/install-haproxy.sh)")
    return found


def test_compose_and_cluster_local_share_one_topology_and_one_haproxy_config() -> None:
    """compose.yaml: PostgreSQL, Redis, croupier-1..3 and HAProxy in front on 8000, the
    HAProxy configuration being deploy/haproxy.cfg, the file scripts/cluster-local.sh gives
    its own HAProxy; the compose backend lists exactly the croupier services, by node id."""
    import yaml

    compose = yaml.safe_load((REPO / "compose.yaml").read_text())
    services = compose["services"]
    croupiers = sorted(name for name in services if name.startswith("croupier"))
    assert croupiers == ["croupier-1", "croupier-2", "croupier-3"]
    assert set(services) == {"db", "redis", "haproxy", *croupiers}
    assert services["redis"]["image"].startswith("redis:")
    environments = [services[name]["environment"] for name in croupiers]
    for name, env in zip(croupiers, environments, strict=True):
        assert env["CROUPIER_NODE_ID"] == name and "ports" not in services[name]
        assert env["CROUPIER_REDIS_URL"] == "redis://redis:6379/0"
        assert env["CROUPIER_DATABASE_URL"].startswith("postgresql+psycopg://croupier:")
    shared = (
        "CROUPIER_SECRET_KEY",
        "CROUPIER_DATABASE_URL",
        "CROUPIER_TRUSTED_PROXIES",
        "CROUPIER_BUS_KEY",
        "CROUPIER_REDIS_USERNAME",
        "CROUPIER_REDIS_PASSWORD",
    )
    for key in shared:
        assert len({env[key] for env in environments}) == 1, key  # one cluster, one value
    # The bus is the cluster's alone (issue 27): Redis's default user is off and its
    # password is the one the croupier processes log in with.
    redis_command = " ".join(services["redis"]["command"])
    assert "user default off" in redis_command and "user croupier on" in redis_command
    redis_password = services["redis"]["environment"]["CROUPIER_REDIS_PASSWORD"]
    assert redis_password == environments[0]["CROUPIER_REDIS_PASSWORD"]
    haproxy = services["haproxy"]
    assert haproxy["ports"] == ["8000:8000"] and haproxy["environment"]["LB_BIND"] == ":8000"
    assert set(haproxy["depends_on"]) == set(croupiers)
    mount, target = haproxy["volumes"][0].removesuffix(":ro").split(":")
    files = [arg for arg in haproxy["command"] if arg.startswith(target)]
    local = [Path(mount.replace("./", str(REPO) + "/", 1)) / Path(f).name for f in files]
    assert [p.name for p in local] == ["haproxy.cfg", "haproxy-compose-backend.cfg"]
    assert all(p.is_file() for p in local)
    address = haproxy["networks"]["cluster"]["ipv4_address"]
    assert environments[0]["CROUPIER_TRUSTED_PROXIES"] == f'["{address}"]'
    script = (REPO / "scripts" / "cluster-local.sh").read_text()
    assert '"$REPO/deploy/haproxy.cfg"' in script
    backend = local[1].read_text()
    servers = re.findall(r"^\s+server (\S+) (\S+):8000 ", backend, re.MULTILINE)
    assert servers == [(name, name) for name in croupiers]
    shared = local[0].read_text()
    for directive in ("mode http", "timeout tunnel 1h", "balance leastconn", "option forwardfor"):
        assert directive in shared, directive
    assert "option httpchk GET /healthz" in shared


def test_the_compose_haproxy_configuration_is_valid(haproxy: str) -> None:
    deploy = REPO / "deploy"
    result = subprocess.run(
        [
            haproxy,
            "-c",
            "-f",
            str(deploy / "haproxy.cfg"),
            "-f",
            str(deploy / "haproxy-compose-backend.cfg"),
        ],
        env={**os.environ, "LB_BIND": ":8000"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and "Configuration file is valid" in result.stdout, (
        result.stdout + result.stderr
    )


def test_deploy_dry_run_lists_every_step() -> None:
    result = subprocess.run(
        ["bash", str(REPO / "scripts" / "deploy-local.sh"), "--dry-run", "--prefix", "/tmp/x"],
        capture_output=True,
        text=True,
        check=True,
    )
    out = result.stdout
    for expected in (
        "postgresql",
        "pg_createcluster",
        "CREATE DATABASE croupier",
        "useradd --system",
        "scripts/install.sh",
        "runuser -u croupier",
        "/healthz",
    ):
        assert expected in out, expected
    bad = subprocess.run(
        ["bash", str(REPO / "scripts" / "deploy-local.sh"), "--frobnicate"], capture_output=True
    )
    assert bad.returncode == 2


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="deploy-local.sh needs root")
def test_deploy_local_runs_croupier_on_postgresql_as_its_user() -> None:
    prefix = Path(tempfile.mkdtemp(prefix="croupier-deploy-"))
    os.chmod(prefix, 0o755)
    port, pg_port = _free_port(), _free_port()
    script = str(REPO / "scripts" / "deploy-local.sh")
    args = ["--prefix", str(prefix), "--port", str(port), "--pg-port", str(pg_port)]
    env = {**os.environ, "CROUPIER_OPERATOR_PASSWORD": "deploy-harbor-violet-77"}
    try:
        subprocess.run(["bash", script, *args], check=True, env=env, timeout=1500)
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        assert health.status_code == 200 and health.json()["database"] == "ok"
        pid = (prefix / "croupier.pid").read_text().strip()  # runuser, which starts it
        server = subprocess.run(
            ["ps", "-ww", "-o", "user=,args=", "--ppid", pid], capture_output=True, text=True
        ).stdout
        assert server.split()[0] == "croupier" and "croupier serve" in server
        env_file = prefix / "croupier.env"
        assert env_file.stat().st_mode & 0o777 == 0o600
        assert "postgresql+psycopg://croupier:" in env_file.read_text()
        login = httpx.post(
            f"http://127.0.0.1:{port}/api/auth/login",
            json={"username": "operator", "password": "deploy-harbor-violet-77"},
            timeout=30,  # a password hash on a loaded machine may take seconds
        )
        assert login.status_code == 200 and login.json()["user"]["role"] == "operator"
    finally:
        subprocess.run(["bash", script, *args, "--purge"], check=False)
        shutil.rmtree(prefix, ignore_errors=True)


class _SlowHealth(http.server.BaseHTTPRequestHandler):
    """A croupier process busy with a live table's burst: ``/healthz`` answers 200, late."""

    delay = 1.6

    def do_GET(self) -> None:
        time.sleep(self.delay)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *_: object) -> None:
        pass


class _Quiet(http.server.ThreadingHTTPServer):
    def handle_error(self, *_: object) -> None:
        pass  # HAProxy closing a check it gave up on


def test_haproxy_keeps_a_slow_process_and_drops_a_dead_one(haproxy: str, tmp_path: Path) -> None:
    """deploy/haproxy.cfg's health checks: a process whose ``/healthz`` takes 1.6 s (loaded,
    alive) stays in service; one that refuses connections (dead) is marked down. With the
    old 1 s check limit, the load benchmark saw every process of a 3,000-player table marked
    down at once during a burst of bets, and new connections refused."""
    slow = _Quiet(("127.0.0.1", 0), _SlowHealth)
    threading.Thread(target=slow.serve_forever, daemon=True).start()
    dead = _free_port()
    backend = tmp_path / "backend.cfg"
    backend.write_text(
        "backend croupier from croupier\n"
        f"    server slow 127.0.0.1:{slow.server_address[1]}\n"
        f"    server dead 127.0.0.1:{dead}\n"
    )
    log = tmp_path / "haproxy.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [haproxy, "-f", str(REPO / "deploy" / "haproxy.cfg"), "-f", str(backend)],
            env={**os.environ, "LB_BIND": f"127.0.0.1:{_free_port()}"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 20
        while "Server croupier/dead is DOWN" not in log.read_text(errors="replace"):
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        # Long enough for the slow process's checks to fail three times over with the old
        # limit (each a second apart, each failing at 1 s).
        time.sleep(6)
        text = log.read_text(errors="replace")
        assert "croupier/slow is DOWN" not in text, text
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        slow.shutdown()
        slow.server_close()
