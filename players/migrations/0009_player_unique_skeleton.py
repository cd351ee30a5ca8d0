from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0008_player_skeleton_clash"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("skeleton_clash", False), models.Q(("username_skeleton", ""), _negated=True)),
                fields=("username_skeleton",),
                name="player_unique_skeleton",
            ),
        ),
    ]
