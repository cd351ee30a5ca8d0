"""Imported games stored before tag values were checked (issue 29): a TAB, ESC, line separator or a mark that
changes the direction of text in a player's name or another tag made the game's record fail to export (a 500)
and could turn a name around on the pages. Each such character is replaced as ``games.engine.clean_tag_value``
replaces it today (a copy here: a migration keeps the rule of its day); names are collapsed to single spaces, as
the import stores them."""

import re

from django.db import migrations

_NOT_IN_TAG_VALUE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _clean(value):
    return _NOT_IN_TAG_VALUE.sub(lambda found: " " if found[0].isspace() else "", str(value))


def _name(value):
    return " ".join(_clean(value).split())[:150]


def clean_imported(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(imported=True).only("pk", "x_name", "o_name", "record_tags").iterator():
        tags = game.record_tags if isinstance(game.record_tags, dict) else {}
        clean_tags = {name: _clean(value) for name, value in tags.items()}
        changes = {
            "x_name": _name(game.x_name), "o_name": _name(game.o_name),
            "record_tags": clean_tags if clean_tags != tags else game.record_tags,
        }
        if any(getattr(game, field) != value for field, value in changes.items()):
            Game.objects.filter(pk=game.pk).update(**changes)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0024_import_attempts"),
    ]

    operations = [
        migrations.RunPython(clean_imported, migrations.RunPython.noop),
    ]
