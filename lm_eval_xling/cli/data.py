"""`data build` and `data push`: the Hub datasets from raw sources, and their upload."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lm_eval_xling.cli import command
from lm_eval_xling.config import RAW_ENV, built_root, raw_root
from lm_eval_xling.errors import UserError


def _build(args: argparse.Namespace) -> int:
    from lm_eval_xling.data import DatasetError, SourceMissing
    from lm_eval_xling.data.builders import build, builders

    if not args.raw.is_dir():
        raise UserError(f"raw sources folder {args.raw} not found (--raw, or ${RAW_ENV})")
    names = args.only or sorted(builders())
    built, failed = 0, {}
    for name in names:
        try:
            counts = build(name, args.raw, args.out)
        except SourceMissing as err:
            print(f"skipped {name}: {err}")
            continue
        except UserError as err:  # one corrupt source does not stop the others; all are reported at the end
            failed[name] = err
            continue
        built += 1
        for part, n in counts.items():
            print(f"{name}\t{part}\t{n}")
    print(f"built {built} of {len(names)} datasets into {args.out}")
    for name, err in failed.items():
        print(f"failed {name}: {err}", file=sys.stderr)
    if failed:
        raise DatasetError(f"{len(failed)} of {len(names)} datasets failed: {', '.join(failed)} (see above)")
    return 0 if built else 1


def _push(args: argparse.Namespace) -> int:
    from lm_eval_xling.data.builders import push_to_hub

    print(push_to_hub(args.name, args.dir, args.repo_id))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    data = sub.add_parser("data", help="build or publish the Hub datasets").add_subparsers(dest="action", required=True)
    build = command(
        data,
        "build",
        "lm-eval-xling data build --raw ../shared/data --out ~/xling-data --only nsp quench",
        help="build every dataset whose raw source is present",
    )
    build.add_argument("--raw", type=Path, default=raw_root(), help="raw sources (default $LM_EVAL_XLING_RAW)")
    build.add_argument(
        "--out",
        type=Path,
        default=built_root(),
        help="the data root to write (default: the cache folder, where every task finds it; elsewhere, point "
        "LM_EVAL_XLING_DATA at it)",
    )
    build.add_argument("--only", nargs="+", metavar="NAME", help="dataset folder names in hub_datasets/")
    build.set_defaults(func=_build)
    push = command(
        data,
        "push",
        "lm-eval-xling data push nsp --dir ~/xling-data",
        help="upload a built dataset to the Hugging Face Hub",
    )
    push.add_argument("name")
    push.add_argument("--dir", type=Path, required=True, help="the data root given to `data build --out`")
    push.add_argument("--repo_id", help="default: the dataset's own Hub id")
    push.set_defaults(func=_push)
