"""Issue 13, item 4: password guessing is throttled, and costs other clients nothing.

Against a real server (argon2 at its production cost): wrong passwords for one account are
checked ``free`` times, then refused with 429 and a ``Retry-After`` that doubles with every
further failure -- the right password included, unchecked, until the back-off has run out.
Per client address the same, across accounts; a forged ``X-Forwarded-For`` changes nothing
unless the server trusts the proxy sending it. Forty wrong logins at once get a bounded number
of password checks, run off the event loop, while a wallet request is answered meanwhile.
"""

from __future__ import annotations

import os
import threading
import time
import uuid

import httpx
import pytest
from sec_testkit import PASSWORD, SecServer, ServerFactory, unique

pytestmark = pytest.mark.timeout(120)


def _login(server: SecServer, name: str, password: str, **headers: str) -> httpx.Response:
    return server.http.post(
        "/api/auth/login", json={"username": name, "password": password}, headers=headers
    )


def test_wrong_passwords_meet_a_growing_back_off(make_server: ServerFactory) -> None:
    server = make_server()
    victim = server.player("victim", credit=1_000)
    statuses = [_login(server, victim.name, f"guess-{i}").status_code for i in range(30)]
    # Five checked and refused, then no more checks: 429 at once.
    assert statuses[:5] == [401] * 5
    assert set(statuses[5:]) == {429}
    refused = _login(server, victim.name, PASSWORD)  # even the right one, unchecked
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    first = int(refused.headers["Retry-After"])
    assert first >= 1
    time.sleep(first + 0.2)
    assert _login(server, victim.name, "guess-again").status_code == 401  # one more check...
    second = _login(server, victim.name, PASSWORD)
    assert second.status_code == 429
    assert int(second.headers["Retry-After"]) >= 2 * first  # ...and the wait has doubled
    time.sleep(int(second.headers["Retry-After"]) + 0.2)
    # The owner gets in once the back-off is over, and that clears the account's failures.
    assert _login(server, victim.name, PASSWORD).status_code == 200
    assert _login(server, victim.name, "typo-once").status_code == 401
    assert _login(server, victim.name, PASSWORD).status_code == 200


def test_an_address_cannot_spray_accounts_nor_forge_its_address(
    make_server: ServerFactory,
) -> None:
    shared = make_server()  # a server of its own: this spends its address's budget
    # 25 usernames (known or not, it is the same), one wrong password each, each claiming
    # another address in X-Forwarded-For, which this server does not trust.
    statuses = [
        _login(
            shared,
            unique("spray"),
            "Winter-2026!",
            **{"X-Forwarded-For": f"198.51.100.{i}"},
        ).status_code
        for i in range(25)
    ]
    assert statuses[:20] == [401] * 20
    assert statuses[20:] == [429] * 5


def test_trusted_proxies_name_the_client(make_server: ServerFactory) -> None:
    server = make_server(env={"CROUPIER_TRUSTED_PROXIES": '["127.0.0.1"]'})
    for _ in range(20):
        _login(server, unique("behind"), "Winter-2026!", **{"X-Forwarded-For": "203.0.113.7"})
    spent = _login(server, unique("behind"), "x" * 10, **{"X-Forwarded-For": "203.0.113.7"})
    assert spent.status_code == 429
    other = _login(server, unique("behind"), "x" * 10, **{"X-Forwarded-For": "203.0.113.8"})
    assert other.status_code == 401  # another client behind the same proxy


def test_parallel_wrong_logins_do_not_starve_other_requests(make_server: ServerFactory) -> None:
    server = make_server()
    player = server.player("busy", credit=1_000)
    answers: list[tuple[float, int]] = []
    lock = threading.Lock()
    start = threading.Barrier(41)

    def attack(i: int) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            start.wait()
            response = client.post(
                "/api/auth/login",
                json={"username": f"nobody{i}-{uuid.uuid4().hex[:6]}", "password": "Wrong-pass-1"},
            )
            with lock:
                answers.append((time.monotonic(), response.status_code))

    threads = [threading.Thread(target=attack, args=(i,)) for i in range(40)]
    for thread in threads:
        thread.start()
    start.wait()
    time.sleep(0.05)  # the logins are in
    sent = time.monotonic()
    wallet = server.http.get("/api/wallet", headers=player.auth)
    answered = time.monotonic()
    for thread in threads:
        thread.join()
    assert wallet.status_code == 200 and wallet.json()["balance"] == 1_000
    checked = sorted(at for at, status in answers if status == 401)
    refused = [at for at, status in answers if status == 429]
    # A bounded number of checks (the address's budget), the rest refused unchecked...
    assert len(checked) == 20 and len(refused) == 20
    # ...and the wallet was answered while the password checks were still running.
    assert answered < checked[-1], (answered - sent, checked[-1] - sent)
    print(f"wallet answered in {1000 * (answered - sent):.0f} ms during 40 parallel logins")


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="thread priorities are a POSIX call")
def test_passwords_are_hashed_on_one_lane_in_threads_of_lower_priority() -> None:
    """A burst of argon2 work must not take the CPU from the event loop: each hash is one
    thread's work (one lane), and the hashing threads run niced below the server's."""
    import asyncio

    from croupier.server.accounts import service
    from croupier.server.accounts.passwords import HASHING_NICENESS, PasswordHashing

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    async def in_pool() -> int:
        hashing = PasswordHashing(workers=1, queue=1)
        try:
            return await hashing.run(niceness)
        finally:
            hashing.close()

    base = niceness()
    assert asyncio.run(in_pool()) == min(19, base + HASHING_NICENESS)
    assert "p=1" in service.hash_password("felt-river-lantern-42")
