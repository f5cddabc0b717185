#!/bin/sh
# The one install of croupier. `make run`, `make test` (through the Makefile's stamp target)
# and the Dockerfile all run this script, so the image gets exactly what a developer gets.
#   PYTHON  the interpreter that creates the virtual environment (default python3)
#   VENV    where the virtual environment goes (default .venv, relative to the checkout)
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --upgrade pip
fi
# constraints.txt pins every distribution to the versions the suite last passed with.
"$VENV/bin/pip" install -c constraints.txt -e '.[server,cli,plot,dask]' --group dev
# The Hold'em engine's hot modules compiled with mypyc when this machine has a C compiler and
# Python's headers; otherwise it says so and the pure-Python engine (the same code) runs.
"$VENV/bin/python" scripts/build_native.py
# The package's sources byte-compiled once: the editable install leaves them as .py, and where
# PYTHONDONTWRITEBYTECODE is set (as on our development machine) every process would compile
# them again -- every server and cluster node the tests start, every CLI run (importing the
# server and the CLI: 1.6-1.9 CPU-s without the .pyc files, 1.6-1.7 with them).
"$VENV/bin/python" -m compileall -q src/croupier
# The manifest of the package as installed (issue 30): the SHA-256 of every file and of the
# shipped tables' pay tables, which the server checks at start and every day.
"$VENV/bin/croupier" verify --write
