from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        user_logged_out.connect(_signed_out, dispatch_uid="games.live.signed_out")


def _signed_out(sender: object, request: object, user: object, **kwargs: object) -> None:
    from .live import signed_out

    if getattr(user, "pk", None) is not None:
        signed_out(user.pk)
