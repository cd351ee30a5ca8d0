"""Production settings come from the environment and pass Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], **env: str | None) -> subprocess.CompletedProcess[str]:
    """manage.py in a fresh process with ``env`` instead of the DJANGO_* and DATABASE_URL variables around: in
    development (DJANGO_DEBUG=1, as `make run`) unless ``env`` says otherwise; None leaves a variable unset."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    chosen = {k: v for k, v in {"DJANGO_DEBUG": "1", **env}.items() if v is not None}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **chosen}, capture_output=True, text=True,
        timeout=120,
    )


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "x7!kq2-production-like-secret-key-with-enough-entropy-0a9s8d7f6g5h4j3k",
    "DJANGO_ALLOWED_HOSTS": "play.example.com",
}


def test_check_deploy_reports_nothing_in_production_environment():
    result = _run(["check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    result = _run(["check"], DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_debug_is_off_unless_the_environment_says_so():
    code = "from django.conf import settings; print(settings.DEBUG)"
    result = _run(
        ["shell", "--no-imports", "-c", code], DJANGO_DEBUG=None, DJANGO_SECRET_KEY=PRODUCTION["DJANGO_SECRET_KEY"]
    )
    assert result.stdout.strip() == "False", result.stderr
    # Without a key and without DJANGO_DEBUG: refused, not the public development key.
    result = _run(["check"], DJANGO_DEBUG=None)
    assert result.returncode != 0 and "DJANGO_SECRET_KEY must be set" in result.stderr
    result = _run(["shell", "--no-imports", "-c", code], DJANGO_DEBUG="1")
    assert result.stdout.strip() == "True", result.stderr


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("short", "too weak"),
        ("a" * 30 + "b" * 30, "too weak"),  # long, but two different characters
        ("dev-insecure-0c1f6f2e8a3b4d5c9e7f1a2b3c4d5e6f-not-for-production", "development key"),
        ("django-insecure-" + "x7!kq2-abcdefghijklmnopqrstuvwxyz0123456789", "development key"),
    ],
)
def test_production_refuses_a_weak_secret_key(key, says):
    result = _run(["check", "--deploy"], **{**PRODUCTION, "DJANGO_SECRET_KEY": key})
    assert result.returncode != 0
    assert says in result.stderr and "secrets.token_urlsafe(50)" in result.stderr


def test_serve_fails_on_deploy_warnings_and_its_generated_key_passes():
    import secrets

    assert "check --deploy --fail-level WARNING" in (ROOT / "scripts" / "serve.sh").read_text()
    generated = secrets.token_urlsafe(50)  # what serve.sh writes into .secret_key
    result = _run(["check", "--deploy", "--fail-level", "WARNING"], **{**PRODUCTION, "DJANGO_SECRET_KEY": generated})
    assert result.returncode == 0, result.stdout + result.stderr


def test_plain_http_on_purpose_silences_only_its_own_warnings():
    plain = {**PRODUCTION, "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SECURE_COOKIES": "0"}
    result = _run(["check", "--deploy", "--fail-level", "WARNING"], **plain)
    assert result.returncode == 0, result.stdout + result.stderr
    result = _run(["check", "--deploy", "--fail-level", "WARNING"], **plain, DJANGO_HSTS_SECONDS="60")
    assert result.returncode == 0, result.stdout + result.stderr
    code = "from django.conf import settings; print(sorted(settings.SILENCED_SYSTEM_CHECKS))"
    result = _run(["shell", "--no-imports", "-c", code], **PRODUCTION)
    assert result.stdout.strip() == "[]", result.stderr


def test_database_url_selects_the_database():
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    result = _run(["shell", "--no-imports", "-c", code], DATABASE_URL="postgres://u:p@127.0.0.1:5432/ttt")
    assert result.stdout.strip() == "django.db.backends.postgresql", result.stderr
    result = _run(["shell", "--no-imports", "-c", code])
    assert result.stdout.strip() == "django.db.backends.sqlite3", result.stderr  # Django's own, as shipped


def test_email_goes_to_the_console_in_development_and_to_smtp_in_production():
    code = (
        "from django.conf import settings; "
        "print(settings.EMAIL_BACKEND.rsplit('.', 2)[-2], settings.EMAIL_HOST, "
        "settings.EMAIL_PORT, settings.EMAIL_USE_TLS)"
    )
    result = _run(["shell", "--no-imports", "-c", code])
    assert result.stdout.split()[0] == "console", result.stderr
    result = _run(
        ["shell", "--no-imports", "-c", code],
        **PRODUCTION, DJANGO_EMAIL_HOST="smtp.example.com", DJANGO_EMAIL_PORT="587", DJANGO_EMAIL_USE_TLS="1",
    )
    assert result.stdout.split() == ["smtp", "smtp.example.com", "587", "True"], result.stderr


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_serves_hashed_compressed_static_files(tmp_path):
    """`make serve`'s pipeline: collectstatic with the production storage, then gunicorn + whitenoise.

    Admin's and the API docs' files are left out only to keep the test quick (same storage, same code).
    """
    import http.client
    import json
    import time

    static_root = tmp_path / "static"
    env = {
        **PRODUCTION, "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_STATIC_ROOT": str(static_root), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    result = _run(["collectstatic", "--noinput", "-v", "0", "-i", "admin", "-i", "ninja"], **env)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    hashed = manifest["css/site.css"]
    assert hashed != "css/site.css" and hashed.startswith("css/site.")
    for suffix in ("", ".gz", ".br"):
        assert (static_root / f"{hashed}{suffix}").is_file(), suffix

    port = _free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.conf.py", "config.wsgi:application"],
        cwd=ROOT, env={**clean, **env, "PORT": str(port), "WEB_CONCURRENCY": "1"},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )

    def get(path: str, **headers: str) -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.body = response.read()
        conn.close()
        return response

    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else "gunicorn exited"
            try:
                page = get("/accounts/login/")
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not answer"
                time.sleep(0.2)
        assert page.status == 200
        assert f"/static/{hashed}".encode() in page.body  # pages link the hashed name
        for encoding in ("br", "gzip"):
            response = get(f"/static/{hashed}", **{"Accept-Encoding": encoding})
            assert response.status == 200
            assert response.getheader("Content-Encoding") == encoding
            assert "immutable" in response.getheader("Cache-Control", "")
            assert len(response.body) < (static_root / hashed).stat().st_size
        plain = get(f"/static/{hashed}")
        assert plain.getheader("Content-Encoding") is None
        assert plain.body == (static_root / hashed).read_bytes()
    finally:
        server.terminate()
        server.wait(timeout=30)
