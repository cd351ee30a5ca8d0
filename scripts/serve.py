#!/usr/bin/env python3
"""Start the site's processes under a supervisor: the last step of `make serve` (scripts/serve.sh runs the checks,
the migrations and collectstatic first).

Writes config/serve/nginx.conf and config/serve/supervisord.conf, their @NAMES@ filled in from the environment,
into a run directory of this server (SERVE_RUN_DIR, default .run/<PORT>), then runs supervisord in the
foreground: nginx on HOST:PORT (the site's address), gunicorn's threaded workers for the pages on 127.0.0.1:WEB_PORT,
uvicorn for the live streams on 127.0.0.1:PUSH_PORT, and TASK_WORKERS task workers. A process that exits is
started again; Ctrl-C (or SIGTERM) stops them all.

Environment: HOST (127.0.0.1), PORT (8000), WEB_PORT (PORT + 1), PUSH_PORT (PORT + 2), WEB_CONCURRENCY (2),
PUSH_WORKERS (1), TASK_WORKERS (one per core), NGINX (the nginx binary, /usr/sbin/nginx), SERVE_RUN_DIR;
DJANGO_TRUSTED_PROXIES (1: this nginx; 2 and more: proxies in front of it, whose X-Forwarded-Proto is passed on).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "config" / "serve"


def settings_from(env: dict[str, str]) -> dict[str, str]:
    port = int(env.get("PORT", "8000"))
    run = Path(env.get("SERVE_RUN_DIR") or ROOT / ".run" / str(port)).resolve()
    proxies = int(env.get("DJANGO_TRUSTED_PROXIES", "1") or 1)
    nginx = env.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    return {
        "ROOT": str(ROOT),
        "RUN": str(run),
        "BIN": str(Path(sys.executable).parent),
        "HOST": env.get("HOST", "127.0.0.1"),
        "PORT": str(port),
        "WEB_PORT": env.get("WEB_PORT", str(port + 1)),
        "PUSH_PORT": env.get("PUSH_PORT", str(port + 2)),
        "PUSH_WORKERS": env.get("PUSH_WORKERS", "1"),
        "TASK_WORKERS": env.get("TASK_WORKERS", str(os.cpu_count() or 1)),
        "NGINX": nginx,
        # as root, nginx's workers run as Debian's web server user; otherwise as whoever runs this
        "USER": "user www-data;" if os.geteuid() == 0 else "",
        # the client's own X-Forwarded-Proto is trusted only from a proxy in front of this one
        "FORWARDED_PROTO": "$http_x_forwarded_proto" if proxies > 1 else "$scheme",
    }


def render(template: Path, values: dict[str, str]) -> str:
    text = template.read_text()
    if values.get("TASK_WORKERS") == "0":  # no task workers here (they run elsewhere, or a benchmark needs none)
        text = text.split("; the computer's thinking")[0]
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    return text


def main() -> None:
    values = settings_from(dict(os.environ))
    if not Path(values["NGINX"]).is_file():
        sys.exit(f"serve: nginx is not installed ({values['NGINX']}): `make serve` installs Debian's nginx-light as "
                 "root, or: apt-get install nginx-light")
    run = Path(values["RUN"])
    run.mkdir(parents=True, exist_ok=True)
    run.chmod(0o755)  # nginx's workers (another user under root) reach their temporary folders through it
    for name in ("nginx.conf", "supervisord.conf"):
        (run / name).write_text(render(TEMPLATES / name, values))
    # the proxy stands in front: client addresses come from its X-Forwarded-For (config.auth.client_ip)
    os.environ.setdefault("DJANGO_TRUSTED_PROXIES", "1")
    print(f"serve: http://{values['HOST']}:{values['PORT']} (nginx) -> pages on :{values['WEB_PORT']} (gunicorn), "
          f"live streams on :{values['PUSH_PORT']} (uvicorn), {values['TASK_WORKERS']} task worker(s); "
          f"run directory {run}", flush=True)
    supervisord = Path(values["BIN"]) / "supervisord"
    os.execv(str(supervisord), [str(supervisord), "-n", "-c", str(run / "supervisord.conf")])


if __name__ == "__main__":
    main()
