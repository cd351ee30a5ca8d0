"""Request slots (config/slots.py): ordinary requests one at a time per process under gunicorn's threads, in
arrival order; a stream's slot is free once its view has answered; a request waiting too long gets a 503.
(tests/config/test_serve_live.py runs the real gunicorn with its slot and open streams.)"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import threading
import time

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory, override_settings

from config.slots import FairSlots, RequestSlotsMiddleware
from tests.config.test_settings import ROOT


@pytest.fixture(autouse=True)
def _environment_kept():
    """Running config/gunicorn.conf.py sets defaults in os.environ (WEB_REQUEST_SLOTS, LIVE_MAX_STREAMS): undone, so
    that no later test's server inherits them."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def _wait_until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_a_freed_slot_goes_to_the_longest_waiting_request():
    slots = FairSlots(1)
    assert slots.acquire(timeout=1)
    order: list[int] = []

    def wait(n: int) -> None:
        assert slots.acquire(timeout=10)
        order.append(n)
        slots.release()

    threads = []
    for n in range(5):
        thread = threading.Thread(target=wait, args=(n,))
        thread.start()
        threads.append(thread)
        _wait_until(lambda n=n: len(slots._waiters) == n + 1)  # in line before the next arrives
    slots.release()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4]
    assert slots.acquire(timeout=0.01)  # all handed back: one slot free again


def test_a_newcomer_does_not_take_the_slot_from_a_waiting_request():
    slots = FairSlots(1)
    assert slots.acquire(timeout=1)
    got: list[str] = []
    waiter = threading.Thread(target=lambda: got.append("waiter") if slots.acquire(timeout=10) else None)
    waiter.start()
    _wait_until(lambda: len(slots._waiters) == 1)
    slots.release()  # handed to the waiter, whether or not it has run yet
    assert not slots.acquire(timeout=0.05)  # the newcomer waits its turn
    waiter.join(10)
    assert got == ["waiter"]


def test_a_wait_that_runs_out_leaves_the_line():
    slots = FairSlots(2)
    assert slots.acquire(timeout=1) and slots.acquire(timeout=1)
    assert not slots.acquire(timeout=0.02)
    assert not slots._waiters
    slots.release()
    assert slots.acquire(timeout=0.01)


def _middleware(view):
    return RequestSlotsMiddleware(view)


@override_settings(REQUEST_SLOTS=1, REQUEST_SLOT_WAIT=0.05)
def test_a_request_that_cannot_get_a_slot_in_time_gets_a_503_and_its_view_never_runs():
    inside, leave = threading.Event(), threading.Event()
    ran: list[str] = []

    def view(request):
        ran.append(request.path)
        if request.path == "/slow/":
            inside.set()
            leave.wait(10)
        return HttpResponse("ok")

    middleware = _middleware(view)
    factory = RequestFactory()
    slow = threading.Thread(target=middleware, args=(factory.get("/slow/"),))
    slow.start()
    assert inside.wait(10)
    response = middleware(factory.get("/other/"))
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "busy" in response.content.decode()
    assert ran == ["/slow/"]
    leave.set()
    slow.join(10)
    assert middleware(factory.get("/other/")).status_code == 200  # the slot came back


@override_settings(REQUEST_SLOTS=1, REQUEST_SLOT_WAIT=0.05)
def test_a_stream_holds_no_slot_while_it_streams():
    def view(request):
        if request.path == "/games/live/":
            return StreamingHttpResponse(iter(["event: a\n\n"] * 3), content_type="text/event-stream")
        return HttpResponse("ok")

    middleware = _middleware(view)
    factory = RequestFactory()
    stream = middleware(factory.get("/games/live/"))
    first = next(iter(stream.streaming_content))  # the stream is open, mid-way
    assert first
    assert middleware(factory.get("/games/")).status_code == 200


@override_settings(REQUEST_SLOTS=0)
def test_no_slots_by_default_outside_gunicorn():
    inside, leave = threading.Event(), threading.Event()

    def view(request):
        if request.path == "/slow/":
            inside.set()
            leave.wait(10)
        return HttpResponse("ok")

    middleware = _middleware(view)
    slow = threading.Thread(target=middleware, args=(RequestFactory().get("/slow/"),))
    slow.start()
    assert inside.wait(10)
    assert middleware(RequestFactory().get("/other/")).status_code == 200
    leave.set()
    slow.join(10)


def test_gunicorns_config_gives_each_process_one_slot(monkeypatch):
    monkeypatch.setenv("WEB_REQUEST_SLOTS", "")  # (so that the test's end puts back what was there)
    monkeypatch.delenv("WEB_REQUEST_SLOTS")
    runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    assert os.environ["WEB_REQUEST_SLOTS"] == "1"
    monkeypatch.setenv("WEB_REQUEST_SLOTS", "3")  # an operator's choice stands
    runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    assert os.environ["WEB_REQUEST_SLOTS"] == "3"


def test_gunicorns_workers_are_forked_with_the_preloaded_app_frozen():
    # in a process of its own: freezing the test process's objects would change every test after this one
    script = (
        "import gc, runpy; conf = runpy.run_path('config/gunicorn.conf.py'); before = gc.get_freeze_count(); "
        "conf['pre_fork'](None, None); print(before, gc.get_freeze_count())"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    before, after = map(int, out.split())
    assert before == 0 and after > 1000


# gunicorn's worker (config/gworker.py) reserves the slot as it accepts a connection and hands it to the thread
# that handles it.


@override_settings(REQUEST_SLOTS=1)
def test_a_reserved_slot_is_handed_to_the_request_and_an_unused_one_given_back():
    import config.slots as slots_module

    middleware = _middleware(lambda request: HttpResponse("ok"))
    slots = middleware.slots
    freed = []
    slots.freed = lambda: freed.append(1)
    assert slots_module.PROCESS_SLOTS is slots and slots.idle()
    assert slots.reserve() and not slots.idle() and not slots.reserve()  # one slot: taken as the worker accepts
    slots_module.hand_over()
    assert middleware(RequestFactory().get("/")).status_code == 200  # its request runs at once, on that slot
    # and keeps it until the worker has written the answer: the next request does not start meanwhile
    assert not slots.idle() and freed == []
    slots_module.give_back()  # the answer is written: the worker listens again
    assert slots.idle() and freed == [1]
    slots_module.give_back()  # nothing left to give back
    assert slots.idle() and freed == [1]
    assert slots.reserve()
    slots_module.hand_over()
    slots_module.give_back()  # the connection brought no request: the reservation is released
    assert slots.idle() and freed == [1, 1]


@override_settings(REQUEST_SLOTS=1, REQUEST_SLOT_WAIT=5)
def test_a_streaming_answer_frees_its_handed_slot_before_it_streams():
    import config.slots as slots_module

    middleware = _middleware(lambda request: StreamingHttpResponse(iter(["data: 1\n\n"])))
    slots = middleware.slots
    assert slots.reserve()
    slots_module.hand_over()
    assert middleware(RequestFactory().get("/")).streaming
    assert slots.idle()  # a live page's stream runs for minutes: it holds no slot meanwhile
    slots_module.give_back()
    assert slots.idle() and slots.reserve() and not slots.reserve()  # released once, not twice


@override_settings(REQUEST_SLOTS=1, REQUEST_SLOT_WAIT=5)
def test_a_request_without_a_reservation_waits_for_a_reserved_one():
    middleware = _middleware(lambda request: HttpResponse("ok"))
    assert middleware.slots.reserve()  # another connection's, accepted a moment ago
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(middleware(RequestFactory().get("/"))))
    waiter.start()
    time.sleep(0.2)
    assert answers == []  # no reservation handed to this thread: it queues for the slot
    middleware.slots.release()
    waiter.join(5)
    assert answers[0].status_code == 200


def test_gunicorn_runs_the_reserving_worker_and_closes_every_answer(monkeypatch):
    monkeypatch.delenv("GUNICORN_WORKER_CLASS", raising=False)
    monkeypatch.delenv("GUNICORN_KEEPALIVE", raising=False)
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    assert conf["worker_class"] == "config.gworker.ThreadWorker" and conf["keepalive"] == 0
    from gunicorn.workers.gthread import ThreadWorker as GunicornThreadWorker

    from config.gworker import ThreadWorker

    assert issubclass(ThreadWorker, GunicornThreadWorker)
