# The two commands: `make run` (serve the site) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run test lint bench chromium migrate clean

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PIP) install -q -r requirements-dev.txt
	touch $@

migrate: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) manage.py runserver 127.0.0.1:8000

# Browser tests drive Debian's chromium; Playwright's own browser download cannot work here.
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .

test: $(VENV)/.dev chromium lint
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) -m pytest

bench: $(VENV)/.runtime
	$(PY) -m games.engine.bench

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
