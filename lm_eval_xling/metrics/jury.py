"""An LLM jury: judge models, declared as lm-eval models, score items once per task; verdicts are cached.

Judges come from task metadata or `--metadata`, e.g.
`{"judges": [{"model": "local-chat-completions", "model_args": "model=m,base_url=http://127.0.0.1:8000/v1/chat/completions"},
{"model": "hf", "model_args": "pretrained=Qwen/Qwen2.5-7B-Instruct"}]}`. lm-eval builds each judge and batches its
requests (API judges: `num_concurrent` in their model_args). As in the paper, a judge may be the evaluated model;
`"judge_exclude_self": true` skips it instead.
Every verdict is written to a SQLite cache keyed by judge and prompt as soon as it arrives, so a re-run or a resumed
run asks nothing twice; a judge failure (after lm-eval's own retries) is marked on the item, never cached, and
retried by the next run. Processes sharing a cache claim a prompt before sending it: one that finds a prompt
claimed waits for its verdict instead of sending it again, and takes the claim over once its owner has ended or has
stored no verdict for `CLAIM_TIMEOUT_S`. Prompts are claimed and handed to lm-eval in chunks large enough to keep
every concurrent request of the judge busy.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lm_eval_xling.errors import UserError, stop
from lm_eval_xling.files import parse_json
from lm_eval_xling.redact import is_credential

log = logging.getLogger("lm_eval.xling.jury")  # under lm-eval's logger, so its CLI shows these lines

_CHUNK = 64  # the fewest prompts claimed and sent at a time
_ROUNDS = 4  # and at least this many rounds of the judge's concurrent requests: a chunk waits for its slowest reply
CLAIM_TIMEOUT_S = 600.0  # a claim whose owner stored no verdict for this long is taken over
POLL_S = 0.5  # how often a process waiting for another's verdicts looks again


def _parse_args(model_args: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in model_args.split(",") if "=" in part)


@dataclass(frozen=True)
class Judge:
    """One judge: an lm-eval model name and its model_args."""

    model: str
    model_args: str
    name: str

    @classmethod
    def from_spec(cls, spec: object) -> Judge:
        """A judge from its spec, {"model": lm-eval model name, "model_args": "k=v,..." or {k: v}, "name": optional};
        UserError naming the field where the spec is not one."""
        if not isinstance(spec, dict):
            raise UserError(f'judges: {spec!r:.60} is no judge; expected {{"model": ..., "model_args": ...}}')
        model, model_args, name = spec.get("model"), spec.get("model_args", ""), spec.get("name")
        if isinstance(model_args, dict):
            model_args = ",".join(f"{k}={v}" for k, v in model_args.items())
        for field, value in (("model", model), ("model_args", model_args), ("name", name or "-")):
            if not isinstance(value, str) or (field != "model_args" and not value.strip()):
                raise UserError(f"judge {model!s:.40}: field {field!r} is {value!r:.40}; expected text")
        args = _parse_args(model_args)
        if secrets := [k for k, v in args.items() if is_credential(k, v)]:
            # model_args end up in results and logs; credentials go in the environment (e.g. OPENAI_API_KEY)
            raise UserError(f"judge {model}: put {secrets} in the environment, not in model_args")
        name = name or args.get("model") or args.get("pretrained") or model
        return cls(model, model_args, re.sub(r"\W+", "_", Path(name).name).strip("_"))

    @property
    def identity(self) -> str:
        """Model and arguments without credentials: what makes two verdicts interchangeable."""
        args = _parse_args(self.model_args)
        kept = {k: v for k, v in sorted(args.items()) if not is_credential(k, v) and k not in _RUNTIME_ARGS}
        return json.dumps([self.model, kept])

    def is_model(self, evaluated: dict[str, Any]) -> bool:
        """True when this judge is the model under evaluation (same weights or same served model)."""
        mine = _parse_args(self.model_args)
        return any(mine.get(k) and str(evaluated.get(k)) == mine[k] for k in ("pretrained", "model"))


# Arguments that change how requests are sent, not what the judge answers.
_RUNTIME_ARGS = {"num_concurrent", "max_retries", "timeout", "batch_size", "base_url", "tokenized_requests"}


def _chunk_size(judge: Judge) -> int:
    """Prompts to claim and send at a time: `_ROUNDS` times what the judge has in flight at once (num_concurrent
    requests of batch_size prompts), and no fewer than `_CHUNK`."""
    args = _parse_args(judge.model_args)
    in_flight = 1
    for name in ("num_concurrent", "batch_size"):
        value = args.get(name, "1")
        in_flight *= int(value) if value.isdigit() else 1  # batch_size "auto": lm-eval picks, at least 1
    return max(_CHUNK, _ROUNDS * in_flight)


def judges_from_metadata(metadata: dict[str, Any] | None) -> list[Judge]:
    """The judges a task's metadata names (a list of specs, or its JSON text); a malformed spec stops the run with
    one line naming it."""
    specs = (metadata or {}).get("judges") or []
    try:
        if isinstance(specs, str):
            try:
                specs = parse_json(specs)
            except json.JSONDecodeError as err:
                raise UserError(f"judges: not JSON ({err})") from None
        if not isinstance(specs, list):
            raise UserError(f"judges: {specs!r:.60} is no list of judges")
        return [Judge.from_spec(s) for s in specs]
    except UserError as err:
        stop(err)


class VerdictCache:
    """Judge replies keyed by (judge identity, prompt); safe for several processes writing at once (SQLite WAL,
    which also keeps them on one machine, so that a claim's pid tells whether its owner still runs)."""

    def __init__(self, path: Path, claim_timeout: float = CLAIM_TIMEOUT_S):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=60, isolation_level=None)
            self._enable_wal()
            # A verdict is stored from inside lm-eval's request loop as it arrives: a commit that waited for the
            # disk (synchronous=FULL, an fsync each) held every other request up. In WAL mode NORMAL keeps the file
            # whole; a power cut (not a crash) may lose the last verdicts, which the next run asks again.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, judge TEXT, reply TEXT, at REAL)"
            )
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT, pid INTEGER, at REAL)"
            )
        except (OSError, sqlite3.DatabaseError) as err:  # not SQLite, read-only, a folder: the user's to mend
            stop(UserError(f"{path}: cannot be used as the judge cache ({err}); set judge_cache to another file"))
        self.owner = uuid.uuid4().hex  # this cache object's claims: two in one process are two owners
        self.claim_timeout = claim_timeout

    def _enable_wal(self, tries: int = 200) -> None:
        """Switch to WAL, retrying: the switch needs the file to itself and, unlike other statements, does not wait
        on the busy timeout, so it fails at once while another process is creating or switching the same cache."""
        for attempt in range(tries):
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError:
                if attempt == tries - 1:
                    raise
                time.sleep(0.05)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction, taken at once (BEGIN IMMEDIATE), so that no other process writes in between."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @staticmethod
    def key(judge: Judge, prompt: str) -> str:
        return hashlib.sha256(f"{judge.identity}\n{prompt}".encode()).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, str]:
        found = {}
        for start in range(0, len(keys), 500):
            part = list(keys[start : start + 500])
            marks = ",".join("?" * len(part))
            found.update(self._db.execute(f"SELECT key, reply FROM verdicts WHERE key IN ({marks})", part).fetchall())
        return found

    def put(self, key: str, judge: Judge, reply: str) -> None:
        """Store a verdict and drop its claim; the owner's other claims count as fresh again (it is alive)."""
        now = time.time()
        with self._transaction():
            self._db.execute("INSERT OR IGNORE INTO verdicts VALUES (?, ?, ?, ?)", (key, judge.name, reply, now))
            self._db.execute("DELETE FROM claims WHERE key = ?", (key,))
            self._db.execute("UPDATE claims SET at = ? WHERE owner = ?", (now, self.owner))

    def claim(self, keys: Sequence[str], limit: int) -> list[str]:
        """Claim up to `limit` of `keys` for this owner to send: those without a verdict that no one else holds, or
        whose holder has ended or has been silent for `claim_timeout`."""
        mine = []
        now = time.time()
        with self._transaction():
            for key in keys:
                if len(mine) == limit:
                    break
                if self._db.execute("SELECT 1 FROM verdicts WHERE key = ?", (key,)).fetchone():
                    continue
                held = self._db.execute("SELECT owner, pid, at FROM claims WHERE key = ?", (key,)).fetchone()
                if held and held[0] != self.owner and now - held[2] < self.claim_timeout and _running(held[1]):
                    continue
                self._db.execute(
                    "INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?)", (key, self.owner, os.getpid(), now)
                )
                mine.append(key)
        return mine

    def release(self, keys: Sequence[str]) -> None:
        """Give up this owner's claims on `keys` (those the judge failed on: another process may try them)."""
        with self._transaction():
            self._db.executemany("DELETE FROM claims WHERE key = ? AND owner = ?", [(k, self.owner) for k in keys])

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]


def _running(pid: int) -> bool:
    """Whether a process with this id runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        pass
    return True


def _says_something(reply: Any) -> bool:
    """Whether a judge's reply is one: an empty one (lm-eval's stand-in for an API's `"content": null`, a judge
    that spent its tokens thinking) is a failure, never cached, asked again by the next run."""
    return isinstance(reply, str) and bool(reply.strip())


class _StoreEachReply:
    """lm-eval's cache hook: called by its models as each generation completes. Storing the reply then means a
    failure later in the same batch loses nothing, and nothing already answered is asked again."""

    def __init__(self, cache: VerdictCache, judge: Judge, keys_by_context: dict, replies: dict[str, str]):
        self.cache, self.judge, self.keys, self.replies = cache, judge, keys_by_context, replies

    def add_partial(self, attr: str, req: tuple, res: Any) -> None:
        key = self.keys.get(req[0])
        if attr == "generate_until" and key is not None and _says_something(res) and key not in self.replies:
            self.cache.put(key, self.judge, res)
            self.replies[key] = res


class Jury:
    """Asks every judge about every prompt (cache first) and parses each reply into a verdict."""

    def __init__(
        self,
        judges: Sequence[Judge],
        cache: VerdictCache,
        evaluated: dict[str, Any] | None = None,
        exclude_self: bool = False,
    ):
        self.judges = list(judges)
        self.cache = cache
        self.evaluated = evaluated or {}
        self.exclude_self = exclude_self
        self.calls = 0  # judge requests actually sent (not served from the cache)
        self.cache_hits = 0
        self._models: dict[Judge, Any] = {}

    def _model(self, judge: Judge):
        if judge not in self._models:
            from lm_eval.api.registry import get_model

            extra = {}
            if judge.model in ("hf", "huggingface") and "device" not in _parse_args(judge.model_args):
                import torch  # HFLM's own default is "cuda" whatever the machine: pick what is there

                extra["device"] = "cuda" if torch.cuda.is_available() else "cpu"
            try:
                self._models[judge] = get_model(judge.model).create_from_arg_string(judge.model_args, extra)
            except (ValueError, TypeError, KeyError, AttributeError) as err:
                stop(UserError(f"judge {judge.name}: {judge.model} cannot be built from its model_args ({err})"))
        return self._models[judge]

    def _ask(self, judge: Judge, items: list[tuple[str, str]], max_tokens: int, replies: dict[str, str]) -> None:
        """Send (cache key, prompt) items to one judge; every reply is stored the moment lm-eval has it."""
        from lm_eval.api.instance import Instance

        lm = self._model(judge)
        gen_kwargs = {"until": [], "max_gen_toks": max_tokens, "do_sample": False, "temperature": 0.0}
        keys_by_context, requests = {}, []
        for i, (key, prompt) in enumerate(items):
            try:
                context = lm.apply_chat_template([{"role": "user", "content": prompt}])
            except (NotImplementedError, ValueError):  # a base model without a chat template
                context = prompt
            keys_by_context[context] = key
            requests.append(Instance("generate_until", {}, (context, gen_kwargs), i))
        lm.set_cache_hook(_StoreEachReply(self.cache, judge, keys_by_context, replies))
        self.calls += len(requests)
        for (key, _), answer in zip(items, lm.generate_until(requests), strict=True):
            if _says_something(answer) and key not in replies:
                self.cache.put(key, judge, answer)
                replies[key] = answer

    def _judge_chunk(self, judge: Judge, items: list[tuple[str, str]], max_tokens: int) -> dict[str, str]:
        """Replies for claimed items; after a failed request, its unanswered items one by one. The claims of items
        left unanswered are released (failures are not cached: another process, or the next run, asks again)."""
        replies: dict[str, str] = {}
        try:
            self._ask(judge, items, max_tokens, replies)
        except Exception as err:  # noqa: BLE001 - any judge failure: retry what is still unanswered
            log.warning("judge %s failed on a chunk of %d (%s); retrying one by one", judge.name, len(items), err)
            for item in items:
                if item[0] in replies:
                    continue
                try:
                    self._ask(judge, [item], max_tokens, replies)
                except Exception as one_err:  # noqa: BLE001
                    log.warning("judge %s failed on an item: %s", judge.name, type(one_err).__name__)
        finally:
            self.cache.release([key for key, _ in items if key not in replies])
        return replies

    def _skips(self, judge: Judge) -> bool:
        return self.exclude_self and judge.is_model(self.evaluated)

    def _replies(self, judge: Judge, prompts: list[str], max_tokens: int) -> dict[str, str]:
        """{prompt: reply} for the prompts one judge answered: from the cache, else asked (and cached) chunk by
        chunk; a prompt that another process has claimed is waited for, not sent again."""
        keys = [VerdictCache.key(judge, p) for p in prompts]
        replies = self.cache.get(keys)
        self.cache_hits += len(replies)
        todo = {k: p for k, p in zip(keys, prompts, strict=True) if k not in replies}
        if todo:
            self._model(judge)  # a judge that cannot be built is a configuration error, not a judge failure
        size = _chunk_size(judge)
        while todo:
            if mine := self.cache.claim(list(todo), size):
                replies |= self._judge_chunk(judge, [(k, todo.pop(k)) for k in mine], max_tokens)
            else:
                time.sleep(POLL_S)
            found = self.cache.get(list(todo))
            self.cache_hits += len(found)
            replies |= found
            for key in found:
                del todo[key]
        return {p: replies[k] for p, k in zip(prompts, keys, strict=True) if k in replies}

    def judge(
        self,
        prompts: Sequence[str | None],
        parse: Callable[[str], float | None],
        max_tokens: int = 512,
        reminder: str | None = None,
        logged: dict[str, dict[str, str]] | None = None,
    ) -> list[dict[str, dict[str, Any]]]:
        """For each prompt, {judge name: record}: {"verdict", "reply"}, {"verdict": None, "error"} when the judge
        failed, {"skipped"} for the evaluated model under `exclude_self`. A None prompt (nothing to judge) is
        scored 0 unasked. Each distinct prompt is asked once per judge; a reply that `parse` cannot read is asked
        once more with `reminder` appended (its record keeps both replies, "reminded": true). `logged`, {prompt:
        {judge name: reply}}: replies a run already got (a log being re-scored), read again, not asked again."""
        logged = logged or {}
        unique = list(dict.fromkeys(p for p in prompts if p is not None))
        records: dict[str, dict[str, dict[str, Any]]] = {p: {} for p in unique}
        nothing = {}
        sent_before, hits_before = self.calls, self.cache_hits
        for judge in self.judges:
            if self._skips(judge):
                for record in [*records.values(), nothing]:
                    record[judge.name] = {"skipped": "judge is the evaluated model", "verdict": None}
                continue
            nothing[judge.name] = {"verdict": 0.0, "reply": None, "note": "no answer given: scored wrong"}
            known = {p: logged[p][judge.name] for p in unique if judge.name in logged.get(p, {})}
            replies = self._replies(judge, [p for p in unique if p not in known], max_tokens) | known
            for prompt in unique:
                reply = replies.get(prompt)
                records[prompt][judge.name] = (
                    {"verdict": None, "error": "judge failed after retries"}
                    if reply is None
                    else {"verdict": parse(reply), "reply": reply}
                )
            unread = [p for p in unique if p not in known and _unread(records[p][judge.name])]
            if reminder and unread:
                again = self._replies(judge, [f"{p}\n\n{reminder}" for p in unread], max_tokens)
                for prompt in unread:
                    reply = again.get(f"{prompt}\n\n{reminder}")
                    if reply is not None:
                        first = records[prompt][judge.name]["reply"]
                        records[prompt][judge.name] = {
                            "verdict": parse(reply),
                            "reply": reply,
                            "first_reply": first,
                            "reminded": True,
                        }
        sent, hits = self.calls - sent_before, self.cache_hits - hits_before
        log.info("jury: %d judge requests sent, %d served from the cache", sent, hits)
        return [dict(records[p]) if p is not None else dict(nothing) for p in prompts]


def _unread(record: dict[str, Any]) -> bool:
    """A judge replied but no verdict could be read from the reply."""
    return record.get("verdict") is None and record.get("reply") is not None


def _majority(verdicts: Sequence[float]) -> float:
    """The most common verdict; without a single one, the median (a 5/3/1 split is a 3, not a 1)."""
    import statistics

    modes = statistics.multimode(verdicts)
    return modes[0] if len(modes) == 1 else float(statistics.median(verdicts))


def unit_scores(unit: dict[str, dict[str, Any]], names: Sequence[str], scale: float) -> dict[str, float]:
    """One unit's scores (0-100) over the verdicts it has: a failed or unread verdict is left out (NaN where the
    unit has none)."""
    verdicts = {n: unit.get(n, {}).get("verdict") for n in names}
    valid = [v for v in verdicts.values() if v is not None]
    out = {f"judge_{n}": math.nan if v is None else 100 * v / scale for n, v in verdicts.items()}
    if names:
        out["jury_mean"] = 100 * sum(valid) / (scale * len(valid)) if valid else math.nan
        out["jury_majority"] = 100 * _majority(valid) / scale if valid else math.nan
    return out


def active_judges(units: Sequence[dict[str, dict[str, Any]]]) -> list[str]:
    """The judges that were asked (a judge skipped as the evaluated model is not one of them)."""
    return sorted({n for u in units for n, r in u.items() if "skipped" not in r})


def summarize(
    units: Sequence[dict[str, dict[str, Any]]], scale: float, answered: Sequence[bool] | None = None
) -> dict[str, float]:
    """Scores (0-100) over judged units: per judge, the jury's mean and majority; Fleiss' kappa; failure counts.

    A unit is {judge name: record}; a record's "verdict" is None when the judge failed (counted in
    `jury_failures`) or its reply held no verdict even when asked again (`jury_unparsed`). Such verdicts are left
    out of `judge_<name>`, `jury_mean` and `jury_majority` (Likert verdicts / 5, so a mean of 4 is 80), the mean of
    the per-unit values; `judge_<name>_as_zero` and `jury_mean_as_zero` count them as 0 over judges x units
    instead. NaN where no verdict is valid. Kappa is over the units the model `answered` (all by default) that
    every judge scored."""
    names = active_judges(units)
    out: dict[str, float] = {}
    per_unit = [unit_scores(u, names, scale) for u in units]
    for name in [*(f"judge_{n}" for n in names), "jury_mean", "jury_majority"]:
        out[name] = _nanmean([s[name] for s in per_unit])
    for name in names:
        valid = [u[name]["verdict"] for u in units if u.get(name, {}).get("verdict") is not None]
        out[f"judge_{name}_as_zero"] = 100 * sum(valid) / (scale * len(units)) if valid else math.nan
    valid_all = [u[n]["verdict"] for u in units for n in names if u.get(n, {}).get("verdict") is not None]
    cells = len(units) * len(names)
    out["jury_mean_as_zero"] = 100 * sum(valid_all) / (scale * cells) if valid_all else math.nan
    answered = answered if answered is not None else [True] * len(units)
    kept = [u for u, a in zip(units, answered, strict=True) if a and _complete(u, names)]
    out["jury_kappa"] = fleiss_kappa([[u[n]["verdict"] for n in names] for u in kept])
    records = [u[n] for u in units for n in names if n in u]
    out["jury_failures"] = float(sum("error" in r for r in records))
    out["jury_unparsed"] = float(sum(r.get("verdict") is None and "error" not in r for r in records))
    return out


def _nanmean(values: Sequence[float]) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else math.nan


def _complete(unit: dict[str, dict[str, Any]], names: Sequence[str]) -> bool:
    return all(unit.get(n, {}).get("verdict") is not None for n in names)


def fleiss_kappa(ratings: Sequence[Sequence[float]]) -> float:
    """Fleiss' kappa of units x raters (statsmodels); NaN with fewer than two raters or no units."""
    if not ratings or len(ratings[0]) < 2:
        return float("nan")
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as _fleiss

    table, _ = aggregate_raters(ratings)
    return float(_fleiss(table))


JURY_METRICS = ("jury_mean", "jury_majority", "jury_mean_as_zero", "jury_kappa", "jury_failures", "jury_unparsed")
JURY_COUNTS = ("jury_failures", "jury_unparsed")
