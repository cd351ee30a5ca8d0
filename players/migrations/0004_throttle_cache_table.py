"""The cache table of log-in and sign-up throttling (settings THROTTLE_CACHE, config/throttle.py).

Made here so that every `migrate` (make run, serve.sh, the benchmark) creates it; Django's createcachetable
does the work and skips a table that exists. Nothing to undo: the table holds only short-lived counts.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_password_reset_sent_at"),
    ]

    operations = [
        migrations.RunPython(create_cache_tables, migrations.RunPython.noop, elidable=True),
    ]
