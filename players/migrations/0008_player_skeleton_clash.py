"""Look-alike names made impossible by the database: first the names that already clash are marked (all but the
oldest of each group keep their names, as before); 0009 then adds the unique constraint. Two migrations, so that
PostgreSQL does not alter the table in the transaction that updated its rows."""

from django.db import migrations, models
from django.db.models import Count


def mark_clashes(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    groups = (
        Player.objects.exclude(username_skeleton="").values("username_skeleton")
        .annotate(n=Count("id")).filter(n__gt=1).values_list("username_skeleton", flat=True)
    )
    for name_skeleton in list(groups):
        ids = list(Player.objects.filter(username_skeleton=name_skeleton).order_by("pk").values_list("pk", flat=True))
        Player.objects.filter(pk__in=ids[1:]).update(skeleton_clash=True)


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0007_player_sound"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="skeleton_clash",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_clashes, migrations.RunPython.noop),
    ]
