"""The few queries every move request makes, without compiling an ORM query each time.

``get_by_pk``: one row by primary key.
``insert_row``: a new row, its primary key read back (``save()`` of a new instance: a new game).

On this machine compiling ``Model.objects.get(pk=...)`` costs more than running it (a 25-column row:
about 0.4 ms to compile, 0.05 ms to run). ``get_by_pk`` compiles the ORM's own query once per model and
database, keeps its SQL and the ORM's converters, and then runs it on a cursor: the same
SQL and the same Python values as the ORM gives, every field loaded. ``update_fields``, ``insert_row``
and ``insert_rows`` do what ``save(update_fields=...)``, ``save()`` and ``bulk_create`` do for models
without signals, with SQL built once from the model's metadata (a new game's ``save()`` through the ORM
made some 1,400 Python calls: a quarter of a "Play again" request).
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from django.db import connections, models, router

M = TypeVar("M", bound=models.Model)


@cache
def _compiled(model: type[models.Model], alias: str) -> tuple[str, list[str], dict[int, Any]]:
    qs = model._base_manager.using(alias).filter(pk=0)
    compiler = qs.query.get_compiler(alias)
    sql, _ = compiler.as_sql()
    columns = [col for col, _, _ in compiler.select]
    return sql, [col.target.attname for col in columns], compiler.get_converters(columns)


def get_by_pk(model: type[M], pk: Any) -> M | None:
    """``model`` row ``pk`` (None if there is none)."""
    alias = router.db_for_read(model)
    connection = connections[alias]
    if isinstance(pk, int):  # as the ORM: a number the column cannot hold matches no row
        low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
        if (low is not None and pk < low) or (high is not None and pk > high):
            return None
    sql, fields, converters = _compiled(model, alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for pos, (funcs, expression) in converters.items():
        value = values[pos]
        for func in funcs:
            value = func(value, expression, connection)
        values[pos] = value
    return model.from_db(alias, fields, values)


@cache
def _update_sql(model: type[models.Model], alias: str, names: tuple[str, ...], where: tuple[str, ...]) -> str:
    ops = connections[alias].ops
    meta = model._meta
    sets = ", ".join(f"{ops.quote_name(meta.get_field(name).column)} = %s" for name in names)
    conditions = "".join(f" AND {ops.quote_name(meta.get_field(name).column)} = %s" for name in where)
    return f"UPDATE {ops.quote_name(meta.db_table)} SET {sets} WHERE {ops.quote_name(meta.pk.column)} = %s{conditions}"


def update_fields(instance: models.Model, names: list[str], *, unless_changed: dict[str, Any] | None = None) -> int:
    """``instance.save(update_fields=names)`` for a model with no signals: auto_now fields are set as save()
    sets them and every value is prepared by its field as save() prepares it; the UPDATE's SQL is built once.

    ``unless_changed`` ({field: value read before}): update only if the stored row still holds those
    values (a compare-and-set). Returns the number of rows updated: 0 when the row changed or is gone.
    """
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    where = tuple(unless_changed or ())
    params = []
    for name in names:
        field = model._meta.get_field(name)
        params.append(field.get_db_prep_save(field.pre_save(instance, False), connection=connection))
    params.append(instance.pk)
    for name in where:
        params.append(model._meta.get_field(name).get_db_prep_value(unless_changed[name], connection))
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, alias, tuple(names), where), params)
        return cursor.rowcount


@cache
def _insert_sql(model: type[models.Model], alias: str, rows: int) -> tuple[str, list[models.Field]]:
    ops = connections[alias].ops
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(ops.quote_name(f.column) for f in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return f"INSERT INTO {ops.quote_name(model._meta.db_table)} ({columns}) VALUES {', '.join([one] * rows)}", fields


def insert_rows(instances: list[models.Model]) -> None:
    """Insert new rows of one model with an auto primary key, for a model with no signals, in one INSERT.

    Values are prepared by their fields as save() prepares them (auto_now_add set); the primary keys are
    not read back. The SQL is built once per number of rows.
    """
    model = type(instances[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    sql, fields = _insert_sql(model, alias, len(instances))
    params = [
        field.get_db_prep_save(field.pre_save(instance, True), connection=connection)
        for instance in instances for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    for instance in instances:
        instance._state.adding = False
        instance._state.db = alias


@cache
def _insert_one_sql(model: type[models.Model], alias: str) -> tuple[str, list[models.Field], bool]:
    sql, fields = _insert_sql(model, alias, 1)
    returning = connections[alias].features.can_return_columns_from_insert
    if returning:
        sql += f" RETURNING {connections[alias].ops.quote_name(model._meta.pk.column)}"
    return sql, fields, returning


def insert_row(instance: models.Model) -> None:
    """``instance.save()`` of a new row, for a model with no signals and an auto primary key: one INSERT whose
    values are prepared by their fields as save() prepares them (auto_now and auto_now_add set); the new
    primary key is set on ``instance``. The SQL is built once."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    sql, fields, returning = _insert_one_sql(model, alias)
    params = [field.get_db_prep_save(field.pre_save(instance, True), connection=connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0] if returning else connection.ops.last_insert_id(
            cursor, model._meta.db_table, model._meta.pk.column)
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = alias
