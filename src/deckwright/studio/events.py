"""Server-sent events: the builder thread publishes, every open page's stream hears it.

Streams run on the server's event loop; the builder runs in another thread, so a publication
is handed to each stream's loop with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator

HEARTBEAT_SECONDS = 15.0  # a comment line keeps proxies and the browser from closing the stream


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = set()
        self._last: dict | None = None
        self.closed = False

    def publish(self, event: dict) -> None:
        """Tell every open page; callable from any thread."""
        with self._lock:
            self._last = event
            targets = list(self._queues)
        for loop, queue in targets:
            # a closed loop (the server is stopping) has no page left to tell
            if not loop.is_closed():
                loop.call_soon_threadsafe(queue.put_nowait, event)

    def close(self) -> None:
        self.closed = True
        self.publish({"closed": True})

    async def stream(self) -> AsyncIterator[str]:
        """One page's events, starting with the latest, as `text/event-stream` lines."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        entry = (loop, queue)
        with self._lock:
            self._queues.add(entry)
            last = self._last
        try:
            yield "retry: 1000\n\n"
            if last is not None:
                yield _message(last)
            while not self.closed:
                try:
                    event = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield ": alive\n\n"
                    continue
                if event.get("closed"):
                    break
                yield _message(event)
        finally:
            with self._lock:
                self._queues.discard(entry)


def _message(event: dict) -> str:
    return f"event: change\ndata: {json.dumps(event, separators=(',', ':'))}\n\n"
