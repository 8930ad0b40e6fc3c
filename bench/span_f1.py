"""X-PARADE token-level metrics on an X-PARADE-sized synthetic corpus.

    python bench/span_f1.py [--docs 1152] [--tokens 106000] [--seed 0]

Builds random gold/predicted labels (documents of varying length, ~`tokens` in all), times the lm-eval
aggregations of lm_eval_xling.xparade.span_f1 and one 1000-resample bootstrap_ci, and prints a markdown table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from lm_eval_xling.xparade import span_f1

AGGREGATIONS = span_f1.METRICS  # every lm-eval aggregation of the X-PARADE tasks but the confusion counts


def corpus(docs: int, tokens: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """(gold, pred) label lists per document, as process_results hands them to the aggregations."""
    rng = np.random.default_rng(seed)
    lengths = np.maximum(1, rng.poisson(tokens / docs, size=docs))
    items = []
    for length in lengths:
        gold = rng.choice(3, size=length, p=[0.6, 0.3, 0.1])
        pred = np.where(rng.random(length) < 0.7, gold, rng.integers(0, 3, size=length))
        items.append((gold.tolist(), pred.tolist()))
    return items


def timed(fn, *args, **kwargs) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=1152)
    parser.add_argument("--tokens", type=int, default=106_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    items = corpus(args.docs, args.tokens, args.seed)
    gold, pred = [g for g, _ in items], [p for _, p in items]
    print(f"{len(items)} documents, {sum(map(len, gold))} tokens\n")
    rows = [(name, timed(getattr(span_f1, name), items)) for name in AGGREGATIONS]
    rows.append((f"all {len(rows)} aggregations", sum(seconds for _, seconds in rows)))
    rows.append(("bootstrap_ci(new_f1, n=1000)", timed(span_f1.bootstrap_ci, gold, pred, "new_f1", n=1000)))
    print("| operation | seconds |\n|---|---:|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.4f} |")


if __name__ == "__main__":
    main()
