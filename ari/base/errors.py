"""Domain errors. The CLI maps each to a one-line message and a non-zero exit code."""


class AriError(Exception):
    """Base class of every error ARI reports to a user."""

    exit_code = 1


class UsageError(AriError):
    """The user asked for something malformed (bad option value, unknown name)."""

    exit_code = 2


class StoreError(AriError):
    """The temporal KG store cannot be opened or is not a valid ARI store."""


class IngestError(AriError):
    """A dataset file is malformed; the message names the file and line."""


class UnknownDeciderError(UsageError):
    """No decider is registered under the requested name."""


class DeciderError(AriError):
    """A decider backend failed (unreachable endpoint, repeated malformed replies)."""


class MemoryStoreError(AriError):
    """The history store cannot be opened or migrated."""


class MemoryCorruptError(MemoryStoreError):
    """The memory file is damaged; the message names it and `ari memory check`."""


class MemoryReadOnlyError(MemoryStoreError):
    """A write was needed but the memory was opened read-only (file or folder not writable)."""


class DatasetError(AriError):
    """A benchmark dataset file is missing or malformed."""


class ServerError(AriError):
    """An `ari serve` server cannot be reached or refused the request (its one-line message), or
    `ari serve` cannot listen where it was asked to (a port in use)."""


class NoMemoryError(AriError):
    """The offline decider has no learned memory to follow: it would only guess (a greedy walk)."""
