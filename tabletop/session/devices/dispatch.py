"""A thread that runs device jobs one at a time, so a device thread never calls the session
(a device waiting for the session while the session waits for the device would deadlock)."""

from __future__ import annotations

import queue
import threading
import time
from typing import Callable


class Dispatcher:
    """Runs callables one at a time on its own thread."""

    def __init__(self, name: str):
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def put(self, job: Callable[[], None]) -> None:
        self.jobs.put(job)

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception as error:      # a device must never stop the table
                print(f"tabletop: device job failed: {error!r}")
            finally:
                self.jobs.task_done()

    def drain(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while self.jobs.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.002)

    def close(self) -> None:
        self.jobs.put(None)
