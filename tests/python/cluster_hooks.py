"""A profile task for the worker-loss test: on the worker named "victim"
the first task writes a marker file and then blocks, so the test can kill
that worker while it holds a task (no timing involved); everywhere else,
and after the marker exists, it is the normal task."""
import os
import time

import tracekit.cluster


def blocking_profile_one(path, key, events, marker):
    from distributed import get_worker
    if get_worker().name == "victim":
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            fd = None
        if fd is not None:
            os.close(fd)
            while True:            # held until the test kills this worker
                time.sleep(1)
    return tracekit.cluster._profile_one(path, key, events)
