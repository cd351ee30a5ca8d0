"""Calling the API in tests: a JSON POST, and the shape of every refusal."""

from __future__ import annotations

import json

from django.test import Client


def post(client: Client, url: str, data: object = None, **extra) -> object:
    body = "" if data is None else json.dumps(data)
    return client.post(url, body, content_type="application/json", **extra)


def assert_error(response, status: int, code: str) -> dict:
    """``response`` is the JSON refusal ``{"code": code, "message": ...}`` with ``status``; its body."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return body


def run_tasks() -> None:
    """Run every task that is ready, in this process, as a worker of the task queue would."""
    from unittest import mock

    from django_tasks_db.management.commands.db_worker import Worker

    worker = Worker(
        queue_names=["computer", "assist"], interval=0, batch=True, backend_name="default", startup_delay=False,
        max_tasks=None, worker_id="test", excluded_queue_names=[],
    )
    # the worker closes stale connections between tasks: not the test's own, which holds its transaction
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        worker.run()
