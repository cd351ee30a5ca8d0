from __future__ import annotations

from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"
    verbose_name = "Live push"
