"""NSP's commands: `nsp-features` (option features per question) and `nsp-factors` (what drives correctness)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lm_eval_xling.cli import command, whole_number
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import write_file


def _features(args: argparse.Namespace) -> int:
    from lm_eval_xling.config import DATA_ENV, local_root
    from lm_eval_xling.data import load_dataset
    from lm_eval_xling.embedded import model_dir
    from lm_eval_xling.nsp import features as nf
    from lm_eval_xling.nsp.schema import NSP
    from lm_eval_xling.redact import public_name

    if args.limit is not None and args.limit < 1:
        raise UserError(f"--limit is {args.limit}; give a positive number of questions, or leave it out for all")
    root = args.out or (local_root() / NSP.hub_id if local_root() else None)
    if root is None:
        raise UserError(f"set {DATA_ENV} (features go next to the dataset) or pass --out DIR")
    lm_paths = nf.parse_lm_settings(args.lm or [], args.subset, lambda: str(model_dir()))
    models: dict = {}  # path -> CausalLM, loaded once however many languages share it
    for subset in args.subset:
        rows = load_dataset(NSP, subset)[args.split]
        rows = rows.select(range(min(args.limit, len(rows)))) if args.limit else rows
        path = nf.features_path(root, subset, args.split)
        computed, done = nf.write_features(
            rows.to_list(),
            path,
            lambda p=lm_paths[subset]: models[p] if p in models else models.setdefault(p, nf.load_lm(p)),
            lambda: nf.load_embedder(args.embedder),
            {"lm": public_name(lm_paths[subset]), "embedder": public_name(args.embedder)},  # rows are shared
            args.batch_size,
        )
        note = "nothing new to compute" if not computed else f"computed {computed} rows"
        print(f"{path}: {note} ({done} done already, {computed + done} in all)")
    return 0


def _factors(args: argparse.Namespace) -> int:
    from lm_eval_xling.nsp.factors import analyse, markdown

    report = analyse(args.samples, args.features, args.out, args.deltas)
    text = markdown(report)
    if args.out:
        write_file(args.out / "factors.md", text)
    print(json.dumps(report.as_dict(), indent=2) if args.json else text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from lm_eval_xling.nsp.features import PAPER_EMBEDDER

    features = command(
        sub,
        "nsp-features",
        "lm-eval-xling nsp-features --split test_1k --embedder use --lm sw=MODEL_DIR",
        help="NSP option features: similarity to the context, masked perplexity, deltas (resumable JSONL)",
        description="Writes <data root>/lm-eval-xling/nsp/<subset>/<split>.features.jsonl (or under --out), "
        "appending per batch and skipping ids already written.",
    )
    features.add_argument("--subset", nargs="+", choices=("en", "sw", "ha"), default=["en", "sw", "ha"])
    features.add_argument("--split", choices=("test", "test_1k"), default="test")
    lm_help = "causal LM for every language, or LANG=PATH for one (repeatable; default: the embedded one)"
    features.add_argument("--lm", action="append", metavar="[LANG=]PATH", help=lm_help)
    features.add_argument("--embedder", default=PAPER_EMBEDDER, help="sentence-transformers model, or `use`")
    features.add_argument(
        "--batch_size", type=whole_number(1), default=16, help="questions per forward pass (2 sequences each)"
    )
    features.add_argument("--limit", type=int, help="the first N questions of each split")
    features.add_argument("--out", type=Path, help="features root, default $LM_EVAL_XLING_DATA/lm-eval-xling/nsp")
    features.set_defaults(func=_features)

    factors = command(
        sub,
        "nsp-factors",
        "lm-eval-xling nsp-factors results/*/samples_nsp_*.jsonl "
        "--features $LM_EVAL_XLING_DATA/lm-eval-xling/nsp/*/test_1k.features.jsonl",
        help="NSP decision factors: logistic regression of correctness on question features, plots, direct vs CoT",
    )
    factors.add_argument("samples", nargs="+", type=Path, help="samples_nsp_<language>[_cot|_ll]_*.jsonl files")
    factors.add_argument("--features", nargs="+", type=Path, required=True, help="nsp-features JSONL files")
    factors.add_argument("--out", type=Path, help="folder for factors.md and the PNG plots")
    factors.add_argument("--json", action="store_true", help='print {"fits": [...], "direct_vs_cot": [...]}')
    factors.add_argument(
        "--deltas",
        choices=("paper", "toward-correct"),
        default="paper",
        help="delta features as the paper computed them (option A vs B, default) or signed toward the correct option",
    )
    factors.set_defaults(func=_factors)
