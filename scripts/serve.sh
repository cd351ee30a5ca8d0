#!/usr/bin/env bash
# Production server: DEBUG off, migrate, collectstatic (whitenoise: hashed and compressed names), then the site's
# processes under supervisord (scripts/serve.py): nginx in front, gunicorn's threaded workers for the pages, uvicorn for
# the live streams, the task workers.
#
# Environment (all optional except as noted):
#   DJANGO_SECRET_KEY    the key; if unset, one is generated once into .secret_key (git-ignored, mode 600)
#                        and reused, so sessions survive restarts. With several servers, set it yourself.
#                        A weak one (under 50 characters, under 5 different ones, the development key)
#                        stops the start with a message saying so.
#   DJANGO_ALLOWED_HOSTS the site's host names (default 127.0.0.1,localhost)
#   DATABASE_URL         the database (default SQLite db.sqlite3)
#   REDIS_URL            Redis (push, sessions, caches): needed when several app servers share the database
#   HOST, PORT           where the site listens (nginx; default 127.0.0.1:8000: put TLS in front)
#   WEB_PORT, PUSH_PORT  where gunicorn and uvicorn listen on 127.0.0.1 (default PORT+1, PORT+2)
#   WEB_CONCURRENCY      gunicorn workers (default 2); see config/gunicorn.conf.py for the rest
#   TASK_WORKERS         task-queue workers for the computer's thinking (default: one per core)
#   DJANGO_SECURE_SSL_REDIRECT=0, DJANGO_SECURE_COOKIES=0
#                        to try it over plain http on this machine (with a proxy doing TLS, leave them on)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}

export DJANGO_DEBUG=0
if [[ -z "${DJANGO_SECRET_KEY:-}" ]]; then
    if [[ ! -s .secret_key ]]; then
        (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' > .secret_key)
        echo "serve: generated a secret key in .secret_key (kept out of git); set DJANGO_SECRET_KEY to use your own" >&2
    fi
    DJANGO_SECRET_KEY=$(cat .secret_key)
    export DJANGO_SECRET_KEY
fi

# Warnings fail the start too: a weak secret key (Django's W009; the settings refuse one anyway), a security
# setting left off. What DJANGO_SECURE_SSL_REDIRECT=0 / DJANGO_SECURE_COOKIES=0 turn off is not warned about.
"$PY" manage.py check --deploy --fail-level WARNING
"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput -v 0
# nginx, gunicorn, uvicorn and TASK_WORKERS task workers (default: one per core) under supervisord, which starts
# again any that exits; Ctrl-C stops them all
exec "$PY" scripts/serve.py
