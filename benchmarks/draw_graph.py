"""Redraw the agent graph for docs/: the Mermaid source LangGraph writes, and a PNG of it.

    python -m benchmarks.draw_graph [--png]

The PNG needs the Mermaid CLI (`npm install @mermaid-js/mermaid-cli` with PUPPETEER_SKIP_DOWNLOAD=1)
and a local Chromium (Debian's `chromium`); nothing is fetched at draw time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from agents.graph import build_graph

DOCS = Path(__file__).resolve().parents[1] / "docs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--png", action="store_true", help="also render docs/agent_graph.png with mmdc")
    parser.add_argument("--mmdc", default=shutil.which("mmdc") or "mmdc", help="the Mermaid CLI")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    source = DOCS / "agent_graph.mmd"
    source.write_text(build_graph().get_graph().draw_mermaid(), encoding="utf-8")
    print(f"wrote {source}")
    if args.png:
        with tempfile.TemporaryDirectory() as tmp:
            config = Path(tmp) / "puppeteer.json"
            flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
            config.write_text(json.dumps({"executablePath": args.chromium, "args": flags}))
            target = DOCS / "agent_graph.png"
            subprocess.run([args.mmdc, "-p", str(config), "-i", str(source), "-o", str(target), "-b", "white", "-s", "2"], check=True)
            print(f"wrote {target}")


if __name__ == "__main__":
    main()
