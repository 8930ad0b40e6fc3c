"""The `lm-eval-xling` command: thin subcommands that parse arguments and call library functions."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

DEFAULT_TASKS = "nsp,nsp_cot,nsp_ll,quench"
DEFAULT_LIMIT = 5


def _data_build(args: argparse.Namespace) -> int:
    from lm_eval_xling.builders import build, builders
    from lm_eval_xling.data import SourceMissing

    names = args.only or sorted(builders())
    built = 0
    for name in names:
        try:
            counts = build(name, args.raw, args.out)
        except SourceMissing as err:
            print(f"skipped {name}: {err}")
            continue
        built += 1
        for part, n in counts.items():
            print(f"{name}\t{part}\t{n}")
    print(f"built {built} of {len(names)} datasets into {args.out}")
    return 0 if built else 1


def _data_push(args: argparse.Namespace) -> int:
    from lm_eval_xling.builders import push_to_hub

    print(push_to_hub(args.name, args.dir, args.repo_id))
    return 0


def _score(args: argparse.Namespace) -> int:
    from lm_eval.utils import make_table

    from lm_eval_xling.samples import metric_values, score_samples

    if args.task and len(args.samples) > 1:
        sys.exit("--task applies to a single samples file")
    metadata = {"judges": json.loads(args.judges)} if args.judges else None
    merged: dict = {}
    for path in args.samples:
        results = score_samples(path, task=args.task, metadata=metadata)
        if args.json:
            merged.update(metric_values(results))
        else:
            print(f"{path}\n{make_table(results)}")
    if args.json:
        print(json.dumps(merged, indent=2))
    return 0


def _quench_chain(args: argparse.Namespace, extra: list[str]) -> int:
    """Entity run, then the rationale run on the entity run's own predictions; a finished stage is not redone."""
    import subprocess

    from lm_eval_xling.samples import latest_samples

    metadata = {"judges": json.loads(args.judges)} if args.judges else {}

    def stage(task: str, out: Path, meta: dict) -> Path:
        if (done := latest_samples(out, task)) is not None:
            print(f"{task}: done already ({done}); skipped")
            return done
        command = [sys.executable, "-m", "lm_eval", "--model", args.model, "--model_args", args.model_args]
        command += [*extra, "--log_samples", "--tasks", task, "--output_path", str(out)]
        subprocess.run(command + (["--metadata", json.dumps(meta)] if meta else []), check=True)
        return latest_samples(out, task)

    entity_log = stage(args.task, args.output_path / "entity", metadata)
    stage("quench_rationale_pred", args.output_path / "rationale", metadata | {"predictions": str(entity_log)})
    return 0


def _consistency_run(args: argparse.Namespace, extra: list[str]) -> int:
    from lm_eval_xling.xsense.pipeline import Run, run, table

    family = args.task.removeprefix("xsense_")
    plan = Run(args.model, args.model_args, family, args.src, args.tgt, args.output_path, args.limit, extra)
    report = run(plan)
    print(json.dumps(report["translation"] | {"bleu_link": report["bleu_link"]}, indent=2))
    print(table([report]))
    return 0


def _consistency_compare(args: argparse.Namespace) -> int:
    from lm_eval_xling.xsense import quality
    from lm_eval_xling.xsense.consistency import compare

    result = compare(args.a, args.b, args.task_a, args.task_b)
    link = None
    if args.translations:
        items, language = quality.input_translations(args.translations)
        link = quality.bleu_link(quality.item_bleu(items, language), result.per_item)
    if args.json:
        print(json.dumps(result.summary()))
        return 0
    print("| | consistency | 95% CI |\n|---|---:|---|")
    for name in ("all", "correct", "incorrect"):
        low, high = result.ci[name]
        print(f"| {name} | {getattr(result, name):.3f} | {low:.3f}-{high:.3f} |")
    print(f"items compared: {result.n}; invalid answers: A {result.invalid_a}, B {result.invalid_b}")
    if link:
        print(json.dumps({"bleu_link": link}, indent=2))
    return 0


def _consistency_table(args: argparse.Namespace) -> int:
    from lm_eval_xling.xsense.pipeline import REPORT, table

    print(table([json.loads((folder / REPORT).read_text(encoding="utf-8")) for folder in args.runs]))
    return 0


def _compare(args: argparse.Namespace) -> int:
    from lm_eval_xling.checkpoints import compare_runs, forest_plot, markdown_table
    from lm_eval_xling.samples import SamplesError

    try:
        comparison = compare_runs(args.a, args.b, iters=args.iters, seed=args.seed)
    except SamplesError as err:
        sys.exit(f"compare: {err}")
    if args.json:
        print(json.dumps(comparison.as_dict(), indent=2))
        for note in comparison.notes():
            print(note, file=sys.stderr)
    else:
        print(markdown_table(comparison))
    if args.plot:
        print(f"forest plot: {forest_plot(comparison, args.plot)}", file=sys.stderr)
    return 0


def _nsp_factors(args: argparse.Namespace) -> int:
    from lm_eval_xling.nsp_factors import FactorsError, analyse, markdown

    try:
        report = analyse(args.samples, args.features, args.out)
    except FactorsError as err:
        sys.exit(f"nsp-factors: {err}")
    text = markdown(report)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "factors.md").write_text(text, encoding="utf-8")
    print(json.dumps(report.as_dict(), indent=2) if args.json else text)
    return 0


def _ynq_lengths(args: argparse.Namespace) -> int:
    from lm_eval_xling.samples import read_samples, task_name_from_path
    from lm_eval_xling.ynq import length_report, length_table

    samples = {}
    for path in args.samples:
        task = task_name_from_path(path) or ""
        if task not in ("ynq_english", "ynq_yoruba"):
            sys.exit(f"{path}: not a ynq_english or ynq_yoruba sample log")
        samples[task.removeprefix("ynq_")] = list(read_samples(path).values())
    report = length_report(samples, args.buckets)
    print(json.dumps(report, indent=2) if args.json else length_table(report))
    return 0


def _report(args: argparse.Namespace) -> int:
    from lm_eval_xling.report import ReportError, write_report
    from lm_eval_xling.samples import SamplesError

    try:
        paths = write_report(args.results_dirs, args.out or args.results_dirs[0], args.iters)
    except (ReportError, SamplesError) as err:
        sys.exit(f"report: {err}")
    for path in paths:
        print(path)
    return 0


def _submit(args: argparse.Namespace) -> int:
    from lm_eval_xling.leaderboard import LeaderboardError, write_submission

    try:
        out, _, notes = write_submission(args.results_dir, args.out)
    except LeaderboardError as err:
        sys.exit(f"submit: {err}")
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(out)
    return 0


def _nsp_features(args: argparse.Namespace) -> int:
    from lm_eval_xling import nsp_features as nf
    from lm_eval_xling.data import DATA_ENV, load_dataset, local_root
    from lm_eval_xling.schemas import NSP

    root = args.out or (local_root() / NSP.hub_id if local_root() else None)
    if root is None:
        sys.exit(f"nsp-features: set {DATA_ENV} (features go next to the dataset) or pass --out DIR")
    from lm_eval_xling.embedded import model_dir

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
            args.batch_size,
        )
        note = "nothing new to compute" if not computed else f"computed {computed} rows"
        print(f"{path}: {note} ({done} done already, {computed + done} in all)")
    return 0


def _embedded_model(args: argparse.Namespace) -> int:
    from lm_eval_xling.embedded import model_dir

    print(model_dir())
    return 0


def _xparade_baselines(args: argparse.Namespace) -> int:
    from lm_eval_xling.xparade_baselines import markdown_table, run_baselines

    results = run_baselines(args.split)
    print(json.dumps(results.scores, indent=2) if args.json else markdown_table(results))
    return 0


def ensure_local_data(raw: Path) -> Path:
    """The local data root for the main job: LM_EVAL_XLING_DATA, else a cache built from `raw` once."""
    from lm_eval_xling.builders import build, builders
    from lm_eval_xling.data import DATA_ENV, SourceMissing, local_root
    from lm_eval_xling.embedded import cache_dir

    root = local_root()
    if root is not None:
        return root
    root = cache_dir() / "data"
    for name, module in builders().items():
        if not (root / module.SPEC.hub_id / "README.md").is_file():
            try:
                build(name, raw, root)
            except SourceMissing as err:
                print(f"skipped {name}: {err}", file=sys.stderr)
    os.environ[DATA_ENV] = str(root)
    return root


def _run(args: argparse.Namespace, extra: list[str]) -> int:
    """The main job: our tasks through the real lm_eval CLI, on the embedded model and local data by default."""
    from lm_eval.__main__ import cli_evaluate

    ensure_local_data(args.raw)
    argv = ["lm_eval", "--model", args.model, "--tasks", args.tasks, "--limit", str(args.limit)]
    argv += ["--batch_size", str(args.batch_size)]
    if args.model_args is None:
        from lm_eval_xling.embedded import model_dir

        argv += ["--model_args", f"pretrained={model_dir()}", "--apply_chat_template"]
    else:
        argv += ["--model_args", args.model_args]
    sys.argv = argv + extra
    cli_evaluate()
    return 0


def parser() -> argparse.ArgumentParser:
    from lm_eval_xling.builders import raw_root

    top = argparse.ArgumentParser(prog="lm-eval-xling", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        help="run tasks through lm_eval (default: NSP on the embedded model, on locally built data)",
        description="Unknown arguments are passed on to lm_eval (e.g. --output_path OUT --log_samples).",
    )
    run.add_argument("--tasks", default=DEFAULT_TASKS)
    run.add_argument("--limit", type=float, default=DEFAULT_LIMIT)
    run.add_argument("--model", default="hf")
    run.add_argument("--batch_size", default="8")
    run.add_argument("--model_args", help="default: the embedded SmolLM2-135M-Instruct, chat template on")
    run.add_argument("--raw", type=Path, default=raw_root(), help="raw sources, used when data is built")
    run.set_defaults(func=_run, passes_through=True)

    data = sub.add_parser("data", help="build or publish the Hub datasets").add_subparsers(dest="action", required=True)
    build = data.add_parser("build", help="build every dataset whose raw source is present")
    build.add_argument("--raw", type=Path, default=raw_root())
    build.add_argument("--out", type=Path, required=True)
    build.add_argument("--only", nargs="+", metavar="NAME", help="dataset folder names in hub_datasets/")
    build.set_defaults(func=_data_build)
    push = data.add_parser("push", help="upload a built dataset to the Hugging Face Hub")
    push.add_argument("name")
    push.add_argument("--dir", type=Path, required=True, help="the data root given to `data build --out`")
    push.add_argument("--repo-id", help="default: the dataset's own Hub id")
    push.set_defaults(func=_data_push)

    score = sub.add_parser("score", help="re-score lm-eval sample logs with the task's filters and metrics")
    score.add_argument("samples", nargs="+", type=Path, help="samples_<task>_<date>.jsonl files")
    score.add_argument("--task", help="task name, when the file name does not tell it")
    score.add_argument("--json", action="store_true", help='print {task: {"metric,filter": value}}')
    score.add_argument(
        "--judges",
        help='JSON list of judge models for judged tasks, e.g. \'[{"model": "hf", "model_args": "pretrained=..."}]\'',
    )
    score.set_defaults(func=_score)

    chain = sub.add_parser(
        "quench-chain",
        help="QUENCH entity run, then the rationale run on its own predictions (resumable)",
        description="Unknown arguments are passed on to both lm_eval runs (e.g. --limit 20 --apply_chat_template).",
    )
    chain.add_argument("--model", default="hf")
    chain.add_argument("--model_args", required=True)
    chain.add_argument("--task", default="quench", help="the entity task: quench, quench_indic, quench_cot, ...")
    chain.add_argument("--output_path", type=Path, required=True)
    chain.add_argument("--judges", help="JSON list of judge models (see `score --judges`)")
    chain.set_defaults(func=_quench_chain, passes_through=True)

    xparade = sub.add_parser(
        "xparade-baselines",
        help="X-PARADE new-information detection baselines: majority, word alignment, Human*",
        description="Binary new-information P/R/F1 per direction; the alignment threshold is tuned on dev.",
    )
    xparade.add_argument("--split", choices=("dev", "test"), default="test")
    xparade.add_argument("--json", action="store_true", help="print {baseline: {direction: P/R/F1}} as JSON")
    xparade.set_defaults(func=_xparade_baselines)

    consistency = sub.add_parser(
        "consistency", help="multi-sense consistency: model-internal translation, T/I/X runs, comparisons"
    ).add_subparsers(dest="action", required=True)
    crun = consistency.add_parser(
        "run",
        help="original, rerun, translation, T, I and X runs of one task and direction, then the report (resumable)",
        description="Unknown arguments are passed on to every lm_eval run (e.g. --apply_chat_template --batch_size 8).",
    )
    crun.add_argument("--model", default="hf")
    crun.add_argument("--model_args", required=True)
    crun.add_argument("--task", required=True, choices=("xsense_pawsx", "xsense_xnli"))
    crun.add_argument("--src", required=True, choices=("en", "de", "zh"))
    crun.add_argument("--tgt", required=True, choices=("en", "de", "zh"))
    crun.add_argument("--output_path", type=Path, required=True)
    crun.add_argument("--limit", type=int, help="evaluate the first N test items")
    crun.set_defaults(func=_consistency_run, passes_through=True)
    ccompare = consistency.add_parser(
        "compare", help="consistency between two sample logs of one task family, aligned by document id"
    )
    ccompare.add_argument("a", type=Path, help="run A's samples_<task>_<date>.jsonl (correct/incorrect refer to A)")
    ccompare.add_argument("b", type=Path, help="run B's samples file")
    ccompare.add_argument("--task-a", help="task of A, when the file name does not tell it")
    ccompare.add_argument("--task-b", help="task of B, when the file name does not tell it")
    ccompare.add_argument("--translations", type=Path, help="the xsense_translate sample log: adds the BLEU link")
    ccompare.add_argument(
        "--json", action="store_true", help='print {"all", "correct", "incorrect", "n", "invalid_a", "invalid_b"}'
    )
    ccompare.set_defaults(func=_consistency_compare)
    ctable = consistency.add_parser("table", help="the paper's table (task x direction by T, I, X) of finished runs")
    ctable.add_argument("runs", nargs="+", type=Path, help="--output_path folders of `consistency run`")
    ctable.set_defaults(func=_consistency_table)

    compare = sub.add_parser(
        "compare",
        help="two checkpoints' lm-eval runs (--log_samples folders) per task and metric, with a paired bootstrap",
        description="Per-document metrics of the tasks both folders hold, paired by doc_id (doc_hash checked): "
        "means, B - A, its 95% paired-bootstrap interval, p and significance.",
    )
    compare.add_argument("a", type=Path, help="run A's lm_eval --output_path folder")
    compare.add_argument("b", type=Path, help="run B's folder (the difference is B - A)")
    compare.add_argument("--json", action="store_true", help='print {task: {metric: {"a", "b", "diff", "ci", ...}}}')
    compare.add_argument("--plot", type=Path, metavar="FILE.png", help="write a forest plot of B - A")
    compare.add_argument("--iters", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    compare.add_argument("--seed", type=int, default=0, help="seed of numpy's default_rng")
    compare.set_defaults(func=_compare)

    factors = sub.add_parser(
        "nsp-factors",
        help="NSP decision factors: logistic regression of correctness on question features, plots, direct vs CoT",
    )
    factors.add_argument("samples", nargs="+", type=Path, help="samples_nsp_<language>[_cot|_ll]_*.jsonl files")
    factors.add_argument("--features", nargs="+", type=Path, required=True, help="nsp-features JSONL files")
    factors.add_argument("--out", type=Path, help="folder for factors.md and the PNG plots")
    factors.add_argument("--json", action="store_true", help='print {"fits": [...], "direct_vs_cot": [...]}')
    factors.set_defaults(func=_nsp_factors)

    lengths = sub.add_parser("ynq-lengths", help="Y-NQ ROUGE by document-length bucket and on comparable-length pairs")
    lengths.add_argument(
        "samples", nargs="+", type=Path, help="samples_ynq_english_*.jsonl and/or samples_ynq_yoruba_*"
    )
    lengths.add_argument("--buckets", type=int, default=4, help="equal-size buckets per language")
    lengths.add_argument("--json", action="store_true")
    lengths.set_defaults(func=_ynq_lengths)

    submit = sub.add_parser(
        "submit",
        help="one leaderboard results JSON (HF leaderboard template layout) from an lm_eval --log_samples folder",
        description="Refuses results with missing tasks or samples files, or made with another task version.",
    )
    submit.add_argument("results_dir", type=Path, help="lm_eval's --output_path folder, or its <model> subfolder")
    submit.add_argument("--out", type=Path, help="default: RESULTS_DIR/leaderboard.json")
    submit.set_defaults(func=_submit)

    from lm_eval_xling.nsp_features import PAPER_EMBEDDER

    features = sub.add_parser(
        "nsp-features",
        help="NSP option features: similarity to the context, masked perplexity, deltas (resumable JSONL)",
        description="Writes <data root>/lm-eval-xling/nsp/<subset>/<split>.features.jsonl (or under --out), "
        "appending per batch and skipping ids already written.",
    )
    features.add_argument("--subset", nargs="+", choices=("en", "sw", "ha"), default=["en", "sw", "ha"])
    features.add_argument("--split", choices=("test", "test_1k"), default="test")
    lm_help = "causal LM for every language, or LANG=PATH for one (repeatable; default: the embedded one)"
    features.add_argument("--lm", action="append", metavar="[LANG=]PATH", help=lm_help)
    features.add_argument("--embedder", default=PAPER_EMBEDDER, help="sentence-transformers model, or `use`")
    features.add_argument("--batch-size", type=int, default=16, help="questions per forward pass (2 sequences each)")
    features.add_argument("--limit", type=int, help="the first N questions of each split")
    features.add_argument("--out", type=Path, help="features root, default $LM_EVAL_XLING_DATA/lm-eval-xling/nsp")
    features.set_defaults(func=_nsp_features)

    report = sub.add_parser(
        "report",
        help="cross-lingual gap report (report.md + self-contained report.html) from lm_eval --log_samples folders",
        description="Per-family tables and high- vs low-resource deltas with 95% bootstrap CIs, invalid-answer rates.",
    )
    report.add_argument(
        "results_dirs", nargs="+", type=Path, metavar="RESULTS_DIR", help="lm_eval --output_path folder"
    )
    report.add_argument("--out", type=Path, help="output folder (default: the first RESULTS_DIR)")
    report.add_argument("--iters", type=int, default=2000, help="bootstrap resamples")
    report.set_defaults(func=_report)

    embedded = sub.add_parser("embedded-model", help="print the embedded model's folder (converted once)")
    embedded.set_defaults(func=_embedded_model)
    return top


def main(argv: list[str] | None = None) -> int:
    args, extra = parser().parse_known_args(argv)
    if getattr(args, "passes_through", False):  # unknown arguments go on to lm_eval
        return args.func(args, extra)
    if extra:
        parser().error(f"unrecognized arguments: {' '.join(extra)}")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
