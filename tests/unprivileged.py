"""Running a child process without root's power over file modes, so a read-only file or folder is
read-only to it: the kernel's real permission check, not a simulated one (the tests run as root)."""

from __future__ import annotations

import os
from collections.abc import Callable


def _without_permission_override() -> None:
    """In the child, before exec: drop root's power to ignore file modes (from the bounding set,
    so the executed interpreter never has it)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "cannot drop a capability")


def unprivileged() -> Callable[[], None] | None:
    """The `preexec_fn` of a subprocess that must meet file modes as an ordinary user (None: it already does)."""
    return _without_permission_override if os.geteuid() == 0 else None
