"""Ctrl-C during a long call: KeyboardInterrupt reaches Python within a second."""

import signal
import subprocess
import sys
import time

import pytest

# The child prints when it starts counting, and the monotonic clock (system-wide on Linux)
# when the KeyboardInterrupt reaches it.
CHILD = """
import sys, time, perftkit
print("counting", flush=True)
try:
    perftkit.perft({call})
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(1)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
@pytest.mark.parametrize("call", ["'startpos', 9", "'startpos', 8, hash_mb=0", "'startpos', 8, stats=True",
                                  "'startpos', 7, stats=True, hash_mb=0", "'startpos', 8, backend='pipeline'"],
                         ids=["hashed", "unhashed", "stats", "stats-unhashed", "pipeline"])
def test_sigint_stops_a_long_perft_within_a_second(call):
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(call=call)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "counting"
    time.sleep(1.5)  # well into the count (the table made, the frontier expanded)
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0, out
    word, caught = out.split()
    assert word == "interrupted"
    assert float(caught) - sent < 1.0
