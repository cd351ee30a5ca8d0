"""A player is a user of the site."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser


class Player(AbstractUser):
    """The site's user model, custom from the first migration so it can grow."""

    class Meta:
        verbose_name = "player"
        verbose_name_plural = "players"

    def __str__(self) -> str:
        return self.username
