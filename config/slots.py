"""Request slots: at most ``REQUEST_SLOTS`` ordinary requests run at once in one web process.

gunicorn's threaded workers (``make serve``) keep a thread per open connection so that the live pages' streams
(/games/live/, held open for minutes) cost no process each. Left alone, those threads would also run the ordinary
requests all at once: sixteen players' moves in sixteen threads of two processes take turns on the interpreter
lock and on SQLite's write lock, whose waiters sleep in growing steps. On this machine that cut the load
benchmark from about 480 to 350 moves/s and raised p99 from 120 to 700 ms (docs/benchmarks.md). With a slot per
process the ordinary requests run one after another, as in gunicorn's sync workers, while the threads still hold
the streams: a stream takes a slot only while its view sets it up, not while it streams.

``REQUEST_SLOTS`` (environment ``WEB_REQUEST_SLOTS``) 0 turns this off (the development server and the tests);
config/gunicorn.conf.py sets 1. A request that waits longer than ``REQUEST_SLOT_WAIT`` seconds for a slot gets a
503 with Retry-After rather than a gunicorn timeout.

gunicorn's worker (config/gworker.py) takes a new connection only when a slot is free, and reserves the slot
for it as it accepts it (``reserve``; the thread that handles the connection is handed the reservation, and its
request's middleware uses it instead of queueing): the process that is free serves the next request, as with
gunicorn's sync workers, instead of each process serving whichever clients' connections it happens to hold. Such a
request keeps its slot until the worker has written its answer (``give_back``), so that the next request does not
start while this one's answer is still to be sent (docs/benchmarks.md).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

#: this thread's request was accepted with a slot already reserved for it (config/gworker.py)
_handed = threading.local()


class FairSlots:
    """A counting semaphore that serves waiters in arrival order: a freed slot goes to the longest waiting
    request, never to one arriving just then (with ``threading.Semaphore`` a newcomer could take it first, and an
    unlucky request waited several turns: a longer tail)."""

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._lock = threading.Lock()
        self._waiters: deque[threading.Event] = deque()
        #: called (from the releasing thread) when a slot becomes free with nobody waiting for it
        self.freed: Callable[[], None] | None = None

    def acquire(self, timeout: float) -> bool:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return True
            turn = threading.Event()
            self._waiters.append(turn)
        if turn.wait(timeout):
            return True
        with self._lock:
            if turn.is_set():  # handed the slot just as the wait ran out
                return True
            self._waiters.remove(turn)
            return False

    def release(self) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().set()  # the slot passes straight to the first in line
                return
            self._free += 1
        if self.freed is not None:
            self.freed()  # gunicorn's worker takes connections again

    def idle(self) -> bool:
        """A slot is free and nobody waits: a new request would run at once."""
        return self._free > 0 and not self._waiters

    def reserve(self) -> bool:
        """Take a free slot now, without waiting, for a connection being accepted; False when none is free."""
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return True
            return False


#: the process's slots (the middleware's), for gunicorn's worker; None when slots are off
PROCESS_SLOTS: FairSlots | None = None


def hand_over() -> None:
    """This thread handles a connection accepted with a reserved slot: its request takes that slot."""
    _handed.slot = True


def give_back() -> None:
    """The connection's answer is written: the slot its request kept until now (``owed``), or a reservation its
    request never took (no request came, or it was refused before the middleware), is released."""
    for mark in ("slot", "owed"):
        if getattr(_handed, mark, False):
            setattr(_handed, mark, False)
            if PROCESS_SLOTS is not None:
                PROCESS_SLOTS.release()


def _take_handed() -> bool:
    if getattr(_handed, "slot", False):
        _handed.slot = False
        return True
    return False


class RequestSlotsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        global PROCESS_SLOTS
        slots = int(getattr(settings, "REQUEST_SLOTS", 0))
        self.slots = PROCESS_SLOTS = FairSlots(slots) if slots > 0 else None
        self.wait = float(getattr(settings, "REQUEST_SLOT_WAIT", 20.0))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.slots is None:
            return self.get_response(request)
        handed = _take_handed()
        if not handed and not self.slots.acquire(timeout=self.wait):
            response = HttpResponse(
                "The site is busy: try again in a few seconds.", status=503, content_type="text/plain; charset=utf-8"
            )
            response["Retry-After"] = "5"
            return response
        keep = False
        try:
            response = self.get_response(request)
            # A slot handed over by gunicorn's worker is kept until the worker has written the answer (give_back):
            # freed here, the next request would start in another thread and take turns on the interpreter lock
            # with the writing of this answer, which then reached its player up to 5 ms late. A streaming answer's
            # body runs for minutes after this returns: its slot is free by then.
            keep = handed and not response.streaming
            return response
        finally:
            if keep:
                _handed.owed = True
            else:
                self.slots.release()
