"""gunicorn's threaded worker, taking a connection only when it can serve it at once (``make serve``).

The threads hold the live pages' streams (config/gunicorn.conf.py); ordinary requests run one at a time per
process (config/slots.py). gunicorn's own threaded worker accepts every connection it is offered and keeps each
client's keep-alive connection: with sixteen players on two processes one process held ten of them and the other
six, and their moves took 41 and 25 ms for the whole run (the load benchmark's p95 was twice its median;
docs/benchmarks.md). This worker, like gunicorn's sync worker, leaves a new connection in the system's queue until
its slot is free, reserves the slot as it accepts (the request's middleware is handed it), and answers with
``Connection: close`` (config/gunicorn.conf.py: ``keepalive = 0``), so that the next request goes to whichever
process is free. A stream takes the slot only while its view sets it up.
"""

from __future__ import annotations

import errno
import socket
from typing import Any

from gunicorn.workers import gthread

from config import slots


class ThreadWorker(gthread.ThreadWorker):
    @property
    def worker_connections(self) -> int:
        # gunicorn's loop listens for new connections while its count is under this: none while the slot is busy
        process = slots.PROCESS_SLOTS
        return self._connections if process is None or process.idle() else 0

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._connections = value

    def init_process(self) -> None:
        process = slots.PROCESS_SLOTS
        if process is not None:
            process.freed = self._wake
        super().init_process()

    def _wake(self) -> None:
        """A slot came free in a request's thread: the loop, which stops listening while it is busy, listens again
        (always woken: it may be just about to stop listening, having seen the slot busy a moment ago)."""
        self.method_queue.defer(_nothing)

    def accept(self, listener: socket.socket) -> None:
        process = slots.PROCESS_SLOTS
        if process is not None and not process.reserve():
            return  # taken meanwhile: the connection waits in the system's queue for whichever process is free
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if process is not None:
                process.release()
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        client_sock.setblocking(True)
        conn = gthread.TConn(self.cfg, client_sock, client_addr, listener.getsockname())
        conn.slot_reserved = process is not None
        self.enqueue_req(conn)

    def handle(self, conn: Any) -> Any:
        reserved = getattr(conn, "slot_reserved", False)
        if reserved:
            conn.slot_reserved = False  # once: a deferred connection's later turn queues for the slot
            slots.hand_over()
        try:
            result = super().handle(conn)
        finally:
            if reserved:
                slots.give_back()
        if not result:
            # The answer closed the connection. gunicorn would linger on its loop's thread until the client closes
            # its side too (up to 2 s: RFC 9112's graceful close), taking no connection meanwhile; with every
            # answer closing, this thread lingers instead.
            conn.close(graceful=True)
            conn.closed_here = True
        return result

    def finish_request(self, conn: Any, fs: Any) -> None:
        if getattr(conn, "closed_here", False):
            self.nr_conns -= 1
            return
        super().finish_request(conn, fs)


def _nothing() -> None:
    """A wake-up call for gunicorn's loop: it looks again whether it may take connections."""
