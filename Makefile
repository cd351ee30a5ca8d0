# The two commands: `make run` (serve the site) and `make test` (the whole suite).
# Also: `make serve` (production-like: nginx, gunicorn, uvicorn and TASK_WORKERS task workers under supervisord, DEBUG
# off) and the benchmarks.
# The interpreter of .venv: Debian's own Python 3.11 when it is there with venv (built with profile-guided and
# link-time optimisation: a move request costs a quarter less CPU than under pyenv's unoptimised 3.11 here),
# else python3. `make PYTHON=python3.11 ...` chooses another; `make clean` first to rebuild .venv with it.
PYTHON ?= $(shell /usr/bin/python3.11 -c "import ensurepip, venv" 2>/dev/null && echo /usr/bin/python3.11 || echo python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run serve test test-sqlite test-postgres lint bench bench-web bench-mixed bench-live bench-cluster bench-browser \
	chromium servers nginx wrk migrate clean ladder match screenshots arena-sim

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PIP) install -q -r requirements-dev.txt
	touch $@

# DEBUG is off unless the environment says otherwise (config/settings.py): the development targets say so.
run migrate test: export DJANGO_DEBUG = 1

migrate: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput

# The site and a task worker together (Procfile.dev, run by honcho): one Ctrl-C stops both.
run: migrate
	PORT=8000 $(VENV)/bin/honcho -f Procfile.dev start

# Browser tests drive Debian's chromium; Playwright's own browser download cannot work here.
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

# `make serve`'s proxy: Debian's nginx (the light build is enough).
nginx:
	@test -x /usr/sbin/nginx || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light)

# What the tests of serving start for themselves (tests/serving, tests/push): nginx, Redis and PostgreSQL from
# Debian's packages (installed here, not started: each test starts its own on free ports, and stops it).
servers: nginx
	@test -x /usr/bin/redis-server || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server)
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql)

# The game page's screenshots in docs/img (docs/features.md), taken by its layout test at 1280 x 800 and 390 x 844.
screenshots: $(VENV)/.dev chromium
	SCREENSHOTS_DIR=docs/img $(PY) -m pytest -q -p no:cacheprovider tests/browser/test_game_page.py -k fits

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .

# Production-like server (DEBUG off): migrate, collectstatic (hashed + compressed names), then nginx in front of
# gunicorn's threaded workers (the pages) and uvicorn (the live streams), and the task workers, under supervisord.
# Settings from the environment; see scripts/serve.sh and docs/operations.md.
serve: $(VENV)/.runtime nginx
	scripts/serve.sh

# The whole suite twice: on SQLite (the zero-setup default), then on PostgreSQL (DATABASE_URL if it
# is given, else a throw-away server that scripts/with-postgres.sh installs, starts and stops).
# Browser tests included on both: about a minute more on PostgreSQL, and they drive the live server's own
# connections there.
test: $(VENV)/.dev chromium servers lint
	$(PY) manage.py collectstatic --noinput -v 0
	@$(MAKE) --no-print-directory test-sqlite
	@$(MAKE) --no-print-directory test-postgres

test-sqlite: $(VENV)/.dev
	@echo "== tests on SQLite (started $$(date +%T))"
	env -u DATABASE_URL $(PY) -m pytest

test-postgres: $(VENV)/.dev
	@echo "== tests on PostgreSQL (started $$(date +%T))"
	scripts/with-postgres.sh $(PY) -m pytest -p no:cacheprovider

bench: $(VENV)/.runtime
	$(PY) -m games.engine.bench

# The levels 1-8 of one variant play each other: scores, Elo, PASS/FAIL per adjacent pair (docs/ladder.md).
# Not part of `make test` (minutes). E.g. `make ladder ARGS="--variant ultimate --games 6 --adjacent"`; on gomoku-class
# boards games start from balanced "pro" openings by default (`--opening`).
ladder: $(VENV)/.runtime
	$(PY) -m games.engine.ladder $(ARGS)

# Two players, colours alternating: the score (docs/ladder.md). E.g. `make match ARGS="--versus old --games 24"`
# (level 8 against level 8 as it was before issue 34); see `python -m games.engine.match --help`.
match: $(VENV)/.runtime
	$(PY) -m games.engine.match $(ARGS)

# Load benchmark of the real server (make serve's stack, 2 page workers) on SQLite and on PostgreSQL; not part of
# `make test`. Options after ARGS=, e.g. `make bench-web ARGS="--players 32 --seconds 20"`; see `bench/web.py --help`;
# old beside new: bench/alternate.py.
bench-web: $(VENV)/.dev wrk servers
	$(PY) bench/web.py $(ARGS)

# Mixed load (issue 19): quick players' moves alone, then while players against the hard computer keep the task
# workers busy, in one run (gunicorn + task workers, SQLite by default). E.g. `make bench-mixed ARGS="--db postgres"`.
bench-mixed: $(VENV)/.dev servers
	$(PY) bench/mixed.py $(ARGS)

# Idle live pages one server process holds (threaded and ASGI), their memory, and a move's push to one of them.
# E.g. `make bench-live ARGS="--pages 3000"`; see `bench/live.py --help`.
bench-live: $(VENV)/.dev servers
	$(PY) bench/live.py $(ARGS)

# Two app servers on one PostgreSQL and one Redis: moves made through one, heard by pages on the other (pushed,
# missed, median, p95). E.g. `make bench-cluster ARGS="--games 16 --seconds 30"`; see `bench/cluster.py --help`.
bench-cluster: $(VENV)/.dev servers
	$(PY) bench/cluster.py $(ARGS)

# From one player's click to the move on the opponent's page: two Chromium pages on make serve's stack.
bench-browser: $(VENV)/.dev chromium servers
	$(PY) bench/browser.py $(ARGS)

# A short arena tournament of 40 API players on a throw-away SQLite database, paired by a real task worker: games,
# pairings per minute, the longest wait for a new pairing, and its checks (no player in two games at once, standings
# equal to the sum of the results). E.g. `make arena-sim ARGS="--players 12 --seconds 20 --variant four"`.
arena-sim: $(VENV)/.runtime
	$(PY) bench/arena_sim.py $(ARGS)

# wrk measures the trivial views a second time, as a check on the benchmark's own clients. Optional: without
# it (no apt, not root) the benchmark runs and leaves out the wrk figures.
wrk:
	@command -v wrk >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk) \
		|| echo "wrk could not be installed: the benchmark runs without the wrk figures"

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .run
