"""The explorer's deterministic caps and limits (counts, never clocks): what they bound and how a cut run is named."""

from __future__ import annotations

CONCRETE_CAP = 64  # iterations of a loop whose trip count is concrete
MERGE_PATIENCE = 48  # term-by-term comparisons without a single merge before merging is given up
STEP_CAP = 200_000  # firings per explored run
PENDING_CAP = 100_000  # runs waiting in the queue at once (the explorer's memory)
LIVELOCK_AFTER = 1_000  # firings of one run before it is watched for a repeated state
# the livelock watch keeps (and compares) only states with at most this many tokens in channels: a state is
# kept whole, so a run whose queues grow without end (it cannot repeat a state) would cost memory
# quadratic in its firings; a livelock through fuller queues runs on to the firing cap (unknown)
WATCH_TOKENS = 4096
MODEL_RLIMIT = 10_000_000  # Z3 resource units per check when looking for small argument values of a violation
# Caps other than the loop bound K: a run they cut was not checked, so the obligations become unknown.
CAPS = {
    "firing": f"firing cap ({STEP_CAP} firings per run)",
    "loop": f"per-loop cap ({CONCRETE_CAP} iterations of a loop whose decisions are concrete)",
    "memory": f"memory cap ({PENDING_CAP} runs waiting to be explored)",
}

