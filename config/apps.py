"""The site's own wiring (``config``), as an app so that it can connect its signal receivers once apps are ready."""

from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    label = "site"
    verbose_name = "Site wiring"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from .sqlite import tune

        connection_created.connect(tune, dispatch_uid="config.sqlite.tune")
