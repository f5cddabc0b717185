# croupier's server image. Its install step is scripts/install.sh, the same script `make run`
# and `make test` run, so the image holds what a developer's checkout holds. Not built on the
# project's machines (no Docker daemon there): see the README's deployment section.
FROM python:3.11-slim-bookworm

# A C compiler, so that the install compiles the Hold'em engine (scripts/build_native.py, mypyc;
# the image already holds Python's headers). Without it the same engine runs as pure Python.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . /app
RUN sh scripts/install.sh \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin croupier \
    && chown -R croupier /app

ENV PATH=/app/.venv/bin:$PATH \
    CROUPIER_HOST=0.0.0.0 \
    CROUPIER_PORT=8000 \
    CROUPIER_LOG_JSON=true
USER croupier
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
CMD ["croupier", "serve"]
