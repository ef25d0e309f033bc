"""``python -m gnumpy info``: print the environment report (``gnumpy.show_config()``).

``python -m gnumpy info --json`` prints the same report as JSON.
"""
from __future__ import annotations

import argparse
import json
import sys
from ._info import collect, render


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gnumpy",
                                 description="gnumpy command-line tools")
    sub = ap.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="print what a bug report needs (gnumpy.show_config())")
    info.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    if args.command == "info":
        report = collect()
        if args.json:
            print(json.dumps(report, indent=2, default=str))
        else:
            print(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
