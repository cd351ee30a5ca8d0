"""Settings for the tic-tac-toe site; values come from the environment where it matters."""

from __future__ import annotations

import atexit
import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# The test suite (pytest imports these settings) runs with development defaults: see DEBUG and THROTTLE_RATES.
TESTING = "pytest" in sys.modules

# Off unless the environment says DJANGO_DEBUG=1 (`make run` does): a production server that forgot to say
# so must not show tracebacks, nor run on the public development key below.
DEBUG = _env_bool("DJANGO_DEBUG", TESTING)
DEV_SECRET_KEY = "dev-insecure-0c1f6f2e8a3b4d5c9e7f1a2b3c4d5e6f-not-for-production"
MAKE_A_KEY = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def _secret_key_problem(key: str) -> str:
    """Why ``key`` will not do for production ("" if it will): Django's own rule (check security.W009)."""
    if not key:
        return "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off (for development, set DJANGO_DEBUG=1)"
    if key == DEV_SECRET_KEY or key.startswith(("django-insecure-", "dev-insecure-")):
        return "DJANGO_SECRET_KEY is the public development key"
    if len(key) < 50 or len(set(key)) < 5:
        return "DJANGO_SECRET_KEY is too weak: it needs at least 50 characters, with at least 5 different ones"
    return ""


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not DEBUG and (problem := _secret_key_problem(SECRET_KEY)):
    raise ImproperlyConfigured(f"{problem}; {MAKE_A_KEY}")
SECRET_KEY = SECRET_KEY or DEV_SECRET_KEY
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]

INSTALLED_APPS = [
    "config.admin_site.SiteAdminConfig",  # django.contrib.admin, on a site that refuses odd input with messages
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",  # {% partialdef %}: a page's fragments, rendered alone as "page.html#name"
    "axes",  # login throttling: see AXES_* below
    "ninja",  # its templates and static files: the API docs page works offline
    "django_tasks",  # the Tasks framework (DEP 14) on Django 5.2; built in from Django 6
    "django_tasks_db",  # its database queue: workers are `manage.py worker` (games.services.queue, docs/operations.md)
    "config.apps.SiteConfig",  # the site's wiring: SQLite's pragmas on each connection (config/sqlite.py)
    "push",  # the live push: notices to open pages and bots, through Redis or the database (push/)
    "players",
    "games",
]

MIDDLEWARE = [
    "config.middleware.PermissionsPolicyMiddleware",  # first: on every answer, the early ones (400, 405) too
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy below, on every answer (django-csp)
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.UnsupportedMethodMiddleware",  # TRACE and the like: 405 before anything answers them
    "config.middleware.FormBodyMiddleware",  # a form body that cannot be read: 400 before anything parses it
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.CommonMiddleware",  # Django's, without the slash redirect that loses a POST's body
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.throttle.ThrottleMiddleware",  # log-ins and sign-ups per address and site-wide: 429 before hashing
    "config.middleware.NullCharacterMiddleware",  # before any view or the admin hands a NUL to the database
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.HtmxLoginRedirectMiddleware",  # after HtmxMiddleware: it reads request.htmx
    "config.middleware.MethodNotAllowedPageMiddleware",  # after HtmxMiddleware too
    "config.middleware.SiteNotFoundMiddleware",  # under DEBUG (make run) too: the site's 404, not Django's debug page
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the lockout page
]

# Redis, shared by every app server and task worker: the live push's log, sessions, caches and throttles go
# through it when set (e.g. redis://127.0.0.1:6379/0). Without it (one machine: `make run`, the tests) the push
# goes through the database and the caches are this machine's.
REDIS_URL = os.environ.get("REDIS_URL", "")

# Live streams (/games/live/, the bots' streams) one process holds at most (0: no cap), and one account holds at
# most on the whole site (across servers through Redis; 0: no cap). A page refused a stream polls instead.
LIVE_MAX_STREAMS = int(os.environ.get("LIVE_MAX_STREAMS", "0"))
# Whether this process serves streams at all: gunicorn's sync workers do not (config/gunicorn.conf.py turns it off;
# make serve's proxy sends the streams to uvicorn).
LIVE_STREAMS = _env_bool("LIVE_STREAMS", True)
LIVE_STREAMS_PER_PLAYER = int(os.environ.get("LIVE_STREAMS_PER_PLAYER", "12"))
# About how long (ms) a page refused a stream waits before trying again (static/js/live.js; it polls meanwhile).
LIVE_RETRY_MS = int(os.environ.get("LIVE_RETRY_MS", "15000"))
# Seconds between the keep-alive lines of the bot API's streams (games.api.streams) when nothing happens.
BOT_STREAM_KEEPALIVE = float(os.environ.get("BOT_STREAM_KEEPALIVE", "5"))

ROOT_URLCONF = "config.urls"
CSRF_FAILURE_VIEW = "config.views.csrf_failure"  # the site's page, JSON under /api/

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite (zero setup) unless DATABASE_URL names another database, e.g. postgres://user:pw@host/db.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "600")),
        # A health check costs a query (SELECT 1 on PostgreSQL) at the start of every request. Without it a
        # connection broken by a database restart fails one request per worker, then Django replaces it.
        conn_health_checks=_env_bool("DJANGO_CONN_HEALTH_CHECKS", False),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # A web server writes from several processes: queue for the write lock at BEGIN instead of
        # failing mid-transaction, and wait for it rather than answering "database is locked".
        # Pragmas (WAL) on each connection: config/sqlite.py.
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
    }
    if TESTING:
        # The test database is a file (in memory where /dev/shm is), not SQLite's in-memory one: the browser tests'
        # task worker is another process (tests/browser/conftest.py), as on a real site.
        _shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
        DATABASES["default"]["TEST"] = {"NAME": str(_shm / f"ttt-test-{os.getpid()}.sqlite3")}
        for _suffix in ("-wal", "-shm"):  # Django removes the file; its journal's companions go too
            atexit.register(Path(DATABASES["default"]["TEST"]["NAME"] + _suffix).unlink, missing_ok=True)

AUTH_USER_MODEL = "players.Player"

# Sessions live in the database (players.sessions: Django's cached_db, with the player beside each session):
# logging out deletes the session, so a copy of its cookie taken earlier stops working too, and a player can
# log out their other sessions from the profile. With REDIS_URL set, each request reads its session from the
# "sessions" cache in Redis (a logout on one server ends the session on all of them at once), falling back to the
# database while Redis fails; without it, from the database (one indexed query; no cache folder to fail). Run
# `manage.py clearsessions` daily to delete expired rows. Changing the password still ends every other session
# (Django checks the password hash).
SESSION_ENGINE = os.environ.get("DJANGO_SESSION_ENGINE", "players.sessions")
SESSION_CACHE_ALIAS = "sessions"

# Login throttling (django-axes): 5 wrong passwords for one username from one address lock that
# combination out for 15 minutes (each further try during the lockout restarts the clock); other
# players, and the same player elsewhere, are not affected, so nobody can lock a victim out from afar.
# The throttling backend comes first; it only refuses, ModelBackend does the real authentication.
AUTHENTICATION_BACKENDS = [
    "config.auth.ThrottledLoginBackend",
    "config.auth.PlayerBackend",  # Django's ModelBackend (the name existing sessions carry)
]
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("DJANGO_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True  # a right password (before any lockout) clears that combination's failures
AXES_LOCKOUT_CALLABLE = "config.auth.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.auth.client_ip"
AXES_USERNAME_FORM_FIELD = "username"
AXES_USERNAME_CALLABLE = "config.auth.attempted_username"  # bounded to 150 characters, as the model
AXES_VERBOSE = False

# Throttling besides axes (config/throttle.py), before any password is hashed: failed log-ins per client address
# (any usernames: password spraying), log-in attempts on the whole site (a ceiling on the CPU spent hashing),
# sign-ups per address and site-wide. "limit/seconds" in fixed windows; empty turns one off. The test suite
# signs up dozens of players from 127.0.0.1 against one live server: there, only tests that set them throttle.
THROTTLE_CACHE = "throttle"
THROTTLE_RATES = {
    name: os.environ.get(f"DJANGO_THROTTLE_{name.upper()}", "" if TESTING else default)
    for name, default in {
        "login_failures_per_address": "20/600",
        "login_attempts_site": "120/60",
        "signup_per_address": "10/3600",
        "signup_site": "30/60",
        "reset_per_address": "5/3600",
        "reset_site": "30/60",
    }.items()
}

if REDIS_URL:
    # One Redis for every server (Django's own RedisCache), each cache under its own prefix.
    CACHES = {
        name: {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": name,
               **({"TIMEOUT": None} if name == "sessions" else {})}
        for name in ("default", "throttle", "sessions")
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},  # per process: computed analyses
        # Throttling counts, shared by every process: a table made by the players app's migration 0004.
        "throttle": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "throttle_cache"},
        # Sessions read from the database alone (SESSION_ENGINE above): no cache to keep in step across processes.
        "sessions": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Email: only the password-reset link is ever sent. Development prints it on the console; production
# names an SMTP server (DJANGO_EMAIL_HOST ...). A failed send is logged, and the page the player sees
# does not change (it never says whether an address is known).
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_bool("DJANGO_EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Tic-tac-toe <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600  # a reset link works for three days, and only once
# At most one reset email per account in this time, however often the form is sent: nobody can flood
# someone's inbox through the site.
PASSWORD_RESET_INTERVAL = timedelta(minutes=int(os.environ.get("DJANGO_PASSWORD_RESET_INTERVAL_MINUTES", "15")))

# In a game between two players, the one waiting may claim the win once the other has not moved for
# this long (there are no clocks: a game may take days, but not forever).
GAME_ABANDON_AFTER = timedelta(hours=int(os.environ.get("DJANGO_GAME_ABANDON_AFTER_HOURS", "72")))

# The analysis of a finished game on a board too big to solve: seconds of search per position, in a worker
# (a 60-move game at 0.25 s: about 15 s of one worker). The analysis board's "best move": seconds for one position.
# Tests search for a few hundredths of a second.
GAME_ANALYSIS_SECONDS = float(os.environ.get("DJANGO_GAME_ANALYSIS_SECONDS", "0.02" if TESTING else "0.25"))
# At most this long for a whole game (a 200-move game gets 0.1 s a position): below TASK_LOST_AFTER (30 s).
GAME_ANALYSIS_TOTAL_SECONDS = float(os.environ.get("DJANGO_GAME_ANALYSIS_TOTAL_SECONDS", "20"))
POSITION_ANALYSIS_SECONDS = float(os.environ.get("DJANGO_POSITION_ANALYSIS_SECONDS", "0.05" if TESTING else "1.0"))

# A task worker that has played the computer's move in a game against a person thinks on the person's time (mcts on
# ultimate: games.services.thinking) for at most this long, stopping as soon as they move or other work comes; 0 off.
# The tests turn it off (their workers would burn a core after each move); tests/services/test_thinking.py turns
# it on.
COMPUTER_PONDER_SECONDS = float(os.environ.get("DJANGO_COMPUTER_PONDER_SECONDS", "0" if TESTING else "20"))

# Arena tournaments: the site schedules a few each hour for its busiest pools (games.services.arenas.schedule_arenas,
# run by the task workers' sweep); DJANGO_ARENA_SCHEDULE=0 turns that off (the tests do).
ARENA_SCHEDULE = os.environ.get("DJANGO_ARENA_SCHEDULE", "0" if TESTING else "1") == "1"
# Puzzles (games.services.puzzles): cut from each finished game once it is analysed, in the task workers;
# DJANGO_PUZZLES=0 turns that off.
PUZZLES = os.environ.get("DJANGO_PUZZLES", "1") == "1"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    # Production: hashed, compressed static files; cookies only over HTTPS; HSTS.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = _env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # a load balancer's checks may come over plain http
    SESSION_COOKIE_SECURE = _env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # `check --deploy --fail-level WARNING` (serve.sh) warns about what the environment turned off on purpose
    # (plain http on one machine, the benchmark): those warnings only, and only then.
    SILENCED_SYSTEM_CHECKS = [
        check
        for check, turned_off in {
            "security.W008": not SECURE_SSL_REDIRECT,
            "security.W012": not SESSION_COOKIE_SECURE,
            "security.W016": not CSRF_COOKIE_SECURE,
            "security.W004": not SECURE_HSTS_SECONDS,
        }.items()
        if turned_off
    ]

# Browser features no page of the site uses, refused to every page (and anything injected into one). The
# clipboard stays allowed: the profile's button copies a new API token.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media", "geolocation", "gyroscope",
        "hid", "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get", "screen-wake-lock",
        "serial", "usb", "xr-spatial-tracking",
    )
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "plain"}},
    "root": {"handlers": ["stdout"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# The task queue (games.services.queue): slow computer work runs in worker processes (`manage.py worker`), never in
# a web request. Tasks are rows of the site's own database (no extra server), enqueued in the transaction of the change
# that calls for them. Tests may swap the backend (e.g. TASKS_BACKEND=django_tasks.backends.immediate...).
TASKS = {
    "default": {
        "BACKEND": os.environ.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
        "QUEUES": ["computer", "assist"],
    }
}

# Content-Security-Policy (django-csp): scripts only from the site's own files (no inline script, no handler
# attribute, no eval: tests/web/test_no_inline_script.py and the browser tests, which fail on any violation);
# inline styles stay allowed (htmx's indicator style, the charts' style attributes).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
