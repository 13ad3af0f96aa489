"""A client for `ari serve`: `ari ask --server URL` sends the question there instead of loading a store.

Standard library only (urllib): the point of asking a warm server is a command that starts in
a fraction of a second.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from ari.base.errors import ServerError

TIMEOUT_S = 60.0


def ask_server(url: str, question: str, timeout: float = TIMEOUT_S) -> dict[str, Any]:
    """The server's answer to one question: the same dict as `AgentResult.to_dict()`."""
    return _post(url.rstrip("/") + "/ask", {"question": question}, timeout)


def ask_server_batch(url: str, questions: list[str], timeout: float = TIMEOUT_S) -> list[dict[str, Any]]:
    return _post(url.rstrip("/") + "/ask/batch", {"questions": questions}, timeout)["results"]


def _post(url: str, body: dict, timeout: float) -> dict[str, Any]:
    if not url.startswith(("http://", "https://")):
        raise ServerError(f"server URL must start with http:// or https://: {url}")
    try:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ServerError("the question is not valid Unicode (a lone surrogate?)") from None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise ServerError(f"{url}: HTTP {exc.code}: {_message(exc)}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ServerError(f"cannot reach the ARI server at {url}: {reason}") from None
    except ValueError as exc:
        raise ServerError(f"{url}: the reply is not JSON ({exc})") from None


def _message(exc: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(exc.read().decode("utf-8")).get("error", exc.reason))
    except (ValueError, AttributeError, OSError):
        return str(exc.reason)
