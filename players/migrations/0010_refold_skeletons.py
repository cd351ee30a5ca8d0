"""The look-alike skeleton now folds case, accents and the digits read as letters (players.confusables, issue 29):
``b0b`` and ``alicé`` look like ``bob`` and ``alice``. Every player's skeleton is recomputed; names that clash
only under the new rule are marked as 0008 marked the old clashes (all but the oldest of each group keep their
names and stay outside the unique constraint of 0009). The clashes are marked first and the changed skeletons
cleared before they are set, so the unique constraint holds at every step."""

from collections import defaultdict

from django.db import migrations

from players.confusables import skeleton

BATCH = 500


def _chunks(ids):
    ids = sorted(ids)
    for start in range(0, len(ids), BATCH):
        yield ids[start:start + BATCH]


def refold(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    old = dict(Player.objects.values_list("pk", "username_skeleton"))
    new = {pk: skeleton(name)[:600] for pk, name in Player.objects.values_list("pk", "username").iterator()}
    groups = defaultdict(list)
    for pk in sorted(new):
        if new[pk]:
            groups[new[pk]].append(pk)
    clashes = [pk for ids in groups.values() for pk in ids[1:]]
    for ids in _chunks(clashes):
        Player.objects.filter(pk__in=ids).update(skeleton_clash=True)
    changed = [pk for pk in new if new[pk] != old.get(pk)]
    for ids in _chunks(changed):
        Player.objects.filter(pk__in=ids).update(username_skeleton="")  # outside the constraint meanwhile
    for pk in changed:
        Player.objects.filter(pk=pk).update(username_skeleton=new[pk])


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0009_player_unique_skeleton"),
    ]

    operations = [
        migrations.RunPython(refold, migrations.RunPython.noop),
    ]
