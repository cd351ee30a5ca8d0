"""Production settings come from the environment and pass Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True,
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


def test_database_url_selects_the_database():
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    result = _run(["shell", "--no-imports", "-c", code], DATABASE_URL="postgres://u:p@127.0.0.1:5432/ttt")
    assert result.stdout.strip() == "django.db.backends.postgresql", result.stderr
    result = _run(["shell", "--no-imports", "-c", code])
    assert result.stdout.strip() == "django.db.backends.sqlite3", result.stderr
