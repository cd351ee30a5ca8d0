"""Game.move_list: the moves as comma-separated cell numbers, cached on the row; filled for existing games."""

from __future__ import annotations

from django.db import migrations, models


def fill_move_list(apps, schema_editor) -> None:
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.filter(ply__gt=0).only("pk").iterator():
        moves = Move.objects.filter(game_id=game.pk).order_by("ply").values_list("move", flat=True)
        Game.objects.filter(pk=game.pk).update(move_list=",".join(str(m) for m in moves))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_challenges_rematch_private"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="move_list",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.RunPython(fill_move_list, migrations.RunPython.noop),
    ]
