"""Our choice reader beside its peers' (lm-eval's regex filters, lighteval's extractive match, simple-evals' answer
regex) on real4's 4037 real replies in 13 languages, per language, against a target reading.

    python bench/reader_peers.py [--adjudicated PATH] [--languages en,kk,...]

Target: `careful` where present, else the adjudicated reading (JSONL of {"id", "reading"}), else `their_extracted`.
Prints a markdown table, one column group per reader: agreement with the target | abstentions on answered replies |
commitments on unanswered ones | A/B mirror failures (A and B swapped where they stand alone, option texts 0 and 1
swapped: the reading must swap too); then a summary line per reader. real4 is read from $LM_EVAL_XLING_RAW/real4
(default ../shared/data from the project root). lighteval is installed on first run into a venv of its own under
the cache folder (bench/reader_peers_requirements.txt; it sees the project's venv for torch and the rest); where
that fails, its columns show the readings recorded in real4 and have no mirror column.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import sysconfig
from collections import Counter, defaultdict
from pathlib import Path

from lm_eval_xling.config import cache_dir, raw_root

ROOT = Path(__file__).resolve().parents[1]
PEERS = cache_dir() / "reader-peers-venv"
FILES = ("tumlu.jsonl", "afrimedqa.jsonl", "zeroeval_mmlu_redux.jsonl")
# lighteval's Language per real4 language; kaa (Karakalpak) has none. Languages whose literals lack an answer word
# (az, kk, crh, ug) make lighteval raise; English literals stand in, as in real4's recorded readings.
LIGHTEVAL_LANGUAGE = {"az": "AZERBAIJANI", "kk": "KAZAKH", "kk-Latn": "KAZAKH", "tr": "TURKISH", "uz": "UZBEK",
                      "uz-Cyrl": "UZBEK", "crh": "CRIMEAN_TATAR", "crh-Cyrl": "CRIMEAN_TATAR", "tt": "TATAR",
                      "ug": "UYGHUR", "ug-Latn": "UYGHUR", "en": "ENGLISH"}  # fmt: skip
# simple-evals (github.com/openai/simple-evals common.py, as mmlu_eval.py uses it): the first answer word whose
# MULTILINGUAL_ANSWER_PATTERN_TEMPLATE matches the reply after normalize_response; normalize_extracted_answer's letter.
# (The second, "Korean", entry carries invisible characters after the colon in the source: U+200B here.)
SIMPLE_EVALS_TEMPLATE = "(?i){}[ \t]*([A-D]|[أ-د]|[অ]|[ব]|[ড]|[ঢ]|[Ａ]|[Ｂ]|[Ｃ]|[Ｄ])"
SIMPLE_EVALS_WORDS = (
    r"Answer\s*:", "Answer\\s*:\u200b\u200b\u200b\u200b\u200b\u200b", r"উত্তর\s*:", r"उत्तर\s*:", "উত্তরঃ", r"উত্তর\s*:",
    r"Antwort\s*:", r"답변\s*:", r"정답\s*:", r"답\s*:", r"答案\s*：", r"答案\s*:", r"答\s*：", r"答\s*:", r"答复\s*：",
    r"答曰\s*：", "الإجابة:", "الجواب:", "إجابة:", "الإجابة النهائية:", "الإجابة الصحيحة:", "الإجابة الصحيحة هي:",
    "الإجابة هي:", "الجواب النهائي:", r"Respuesta\s*:", r"Risposta\s*:", r"答え\s*:", r"答え\s*：", r"回答\s*:",
    r"回答\s*：", r"解答\s*:", r"Jawaban\s*:", r"Réponse\s*:", r"Resposta\s*:", r"Jibu\s*:", r"Idahun\s*:",
    r"Ìdáhùn\s*:", r"Idáhùn\s*:", r"Àmọ̀nà\s*:", r"Àdáhùn\s*:", r"Ànúgọ\s*:", r"Àṣàyàn\s*:",
)  # fmt: skip
SIMPLE_EVALS_LETTER = {"أ": "A", "ب": "B", "ج": "C", "د": "D", "অ": "A", "ব": "B", "ড": "C", "ঢ": "D", "Ａ": "A",
                       "Ｂ": "B", "Ｃ": "C", "Ｄ": "D"}  # fmt: skip
STANDALONE_AB = re.compile(r"(?<![^\W_])[AB](?![^\W_])")  # not touching a letter or digit
SWAP = {"A": "B", "B": "A"}
STORED_LABEL = re.compile(r"[(\[]?[A-Za-z][.)\]][ \t]*")
CYRILLIC_B = re.compile(r"(?<![^\W_])Б(?![^\W_])")


def mirror(reply: str, texts: list[str]) -> str:
    """The reply with A and B swapped where they stand alone, and so their Cyrillic forms (А with В, its look-alike,
    or with Б where the reply letters in Cyrillic order); the options' own texts in it are kept as written, but for
    a label the source stored in every one of them."""
    if len(texts) > 1 and all(STORED_LABEL.match(t) for t in texts):  # "a.\tLassa fever": the label swaps too
        texts = [STORED_LABEL.sub("", t, count=1) for t in texts]
    kept = sorted((t for t in texts if len(t) > 1), key=len, reverse=True)
    for i, text in enumerate(kept):
        reply = reply.replace(text, f"\ue100{i}\ue101")
    second = "Б" if CYRILLIC_B.search(reply) else "В"
    cyrillic = {"А": second, second: "А"}
    reply = STANDALONE_AB.sub(lambda m: SWAP[m[0]], reply)
    reply = re.sub(rf"(?<![^\W_])[А{second}](?![^\W_])", lambda m: cyrillic[m[0]], reply)
    for i, text in enumerate(kept):
        reply = reply.replace(f"\ue100{i}\ue101", text)
    return reply


def ours(items: list[dict]) -> list[str | None]:
    from lm_eval_xling.choices import read_choice

    return [read_choice(r["reply"], r["letters"], r["texts"], language=r["language"]) for r in items]


def _lmeval(items: list[dict], flt) -> list[str | None]:
    """A filter's output as one of the item's letters, else None ("[invalid]", or a letter past the options)."""
    out = flt.apply([[r["reply"]] for r in items], [{"choices": r["texts"]} for r in items])
    return [o[0].strip("()") if o[0].strip("()") in r["letters"] else None for o, r in zip(out, items, strict=True)]


def lmeval_regex(items: list[dict]) -> list[str | None]:
    from lm_eval.filters.extraction import RegexFilter

    # lm_eval/tasks/mmlu_prox/en/_en_template_yaml ("custom-extract"); mmlu_prox has none of real4's other languages,
    # so its English phrase reads them, except Turkish: turkishmmlu/config_cot/_turkishmmlu_cot_default_yaml's
    # "get-answer". Both then take_first.
    english = RegexFilter(regex_pattern=r"answer is \(?([ABCDEFGHIJ])\)?")
    turkish = RegexFilter(regex_pattern=r"([A-E])(?= şıkkıdır| şıkkı)")
    return [_lmeval([r], turkish if r["language"] == "tr" else english)[0] for r in items]


def lmeval_multi_choice_regex(items: list[dict]) -> list[str | None]:
    from lm_eval.filters.extraction import MultiChoiceRegexFilter

    # lm_eval/tasks/mmlu/flan_cot_zeroshot/_mmlu_flan_cot_zeroshot_template_yaml "flexible-extract" (the same in
    # gpqa/cot_zeroshot/_gpqa_cot_zeroshot_yaml): the last "(X)", else an option's text, else ": X".
    flt = MultiChoiceRegexFilter(r"(\([A-Z]\))", group_select=-1, ignore_case=True, ignore_punctuation=True)
    return _lmeval(items, flt)


def simple_evals(items: list[dict]) -> list[str | None]:
    readings = []
    for r in items:
        reply = r["reply"]  # normalize_response: markdown and LaTeX wrappers out
        for cut in ("**", "$\\boxed{", "}$", "\\$", "$\\text{", "$", "\\mathrm{", "\\{", "\\text", "\\(", "\\mathbf{",
                    "{", "\\boxed"):  # fmt: skip
            reply = reply.replace(cut, "")
        found = (re.search(SIMPLE_EVALS_TEMPLATE.format(word), reply) for word in SIMPLE_EVALS_WORDS)
        match = next((m for m in found if m), None)
        letter = match and SIMPLE_EVALS_LETTER.get(match[1], match[1])
        readings.append(letter if letter in r["letters"] else None)
    return readings


def lighteval_worker() -> None:
    """Run in the peers' venv: [reply, option count, language] lines in, {config: [option index or None]} out."""
    from lighteval.metrics.utils import extractive_match_utils as em
    from lighteval.tasks.templates.utils.translation_literals import TRANSLATION_LITERALS
    from lighteval.utils.language import Language

    items, out = [json.loads(line) for line in sys.stdin], {}
    for name, free in (("anchored", False), ("no_anchor", True)):  # the metric's default; gpqa_instruct_metric's
        config = em.IndicesExtractionConfig(prefix_for_extraction="NativeLetters", try_extract_without_anchor=free)
        out[name] = []
        for reply, options, language in items:
            lang = Language[LIGHTEVAL_LANGUAGE.get(language, "ENGLISH")]
            lang = lang if TRANSLATION_LITERALS[lang].__dict__["answer"] else Language.ENGLISH  # (its getter raises)
            # MultilingualExtractiveMatchMetric.compute's reading of a prediction (fallback first_match, any_match);
            # a native letter (tt: А Б В Г) is read as the option in its position
            regexes = [(em.lazy_indices_regex(config, options, lang), config)]
            got = em.extract_target_from_pred(reply, regexes, "first_match", "any_match", 5)
            indices = list(TRANSLATION_LITERALS[lang].indices)
            out[name].append(indices.index(got[0]) if got and got[0] in indices else None)
    print(json.dumps(out))


def peers_python() -> tuple[Path | None, str]:
    """The peers' venv's python with lighteval importable (installed on first use), or None and why not."""
    python = PEERS / "bin" / "python"
    if python.exists() and not subprocess.run([python, "-c", "import lighteval"], capture_output=True).returncode:
        return python, f"live, from {PEERS}"
    print(f"installing lighteval into {PEERS} (first run, a minute or two)...", file=sys.stderr)
    try:
        subprocess.run([sys.executable, "-m", "venv", "--clear", PEERS], check=True, capture_output=True)
        site = next(PEERS.glob("lib/python*/site-packages"))
        # The project's venv as a second site folder (its .pth files too): torch and the rest are seen, not reinstalled.
        project_site = sysconfig.get_paths()["purelib"]
        (site / "_project_venv.pth").write_text(f"import site; site.addsitedir({project_site!r})\n")
        pip = [python, "-m", "pip", "install", "-q", "-r", ROOT / "bench" / "reader_peers_requirements.txt"]
        subprocess.run(pip, check=True, capture_output=True, text=True, timeout=900)
    except (subprocess.SubprocessError, OSError, StopIteration) as error:
        detail = (getattr(error, "stderr", None) or "").strip().splitlines()
        return None, f"installing lighteval failed: {detail[-1] if detail else repr(error)}"
    return python, f"live, from {PEERS}"


def lighteval(items: list[dict]) -> tuple[dict[str, list[str | None]], str]:
    """lighteval's two readings of every item, live from the peers' venv; {} and why where it cannot run."""
    python, why = peers_python()
    if python is None:
        return {}, why
    lines = "\n".join(json.dumps([r["reply"], len(r["letters"]), r["language"]]) for r in items)
    done = subprocess.run([python, __file__, "--lighteval-worker"], input=lines, capture_output=True, text=True)
    if done.returncode:
        return {}, f"lighteval failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
    out = json.loads(done.stdout.splitlines()[-1])
    letter = lambda i, r: None if i is None else r["letters"][i]  # noqa: E731
    return {k: [letter(i, r) for i, r in zip(v, items, strict=True)] for k, v in out.items()}, why


def load(folder: Path, adjudicated: Path | None, languages: set[str] | None) -> list[dict]:
    """real4's replies with their target reading: careful, else adjudicated, else the source's own."""
    verdicts = {}
    if adjudicated:
        rows = (json.loads(line) for line in adjudicated.read_text(encoding="utf-8").splitlines() if line.strip())
        verdicts = {row["id"]: row["reading"] for row in rows}
    items = []
    for name in FILES:
        for r in map(json.loads, (folder / name).read_text(encoding="utf-8").splitlines()):
            if languages is None or r["language"] in languages:
                target = r["careful"] if "careful" in r else verdicts.get(r["id"], r["their_extracted"])
                options = r["options"]
                items.append({"language": r["language"], "reply": r["reply"], "letters": options["letters"],
                              "texts": options["texts"], "target": target, "recorded": r["extracted"]})  # fmt: skip
    return items


def tally(read: list[str | None], items: list[dict], mirrorable: list[int]) -> dict[str, Counter]:
    """Per language and "all": replies, agreements, answered, abstentions, commitments, mirrored, mirror failures."""
    stats = defaultdict(Counter)
    for i, r in enumerate(items):
        got, want = read[i], r["target"]
        for key in (r["language"], "all"):
            answered = want is not None
            stats[key].update(n=1, agree=got == want, answered=answered, abstain=answered and got is None,
                              commit=not answered and got is not None)  # fmt: skip
    for j, i in enumerate(mirrorable if len(read) > len(items) else []):  # readings recorded once have no mirror
        for key in (items[i]["language"], "all"):
            stats[key].update(mirrored=1, mirror_fail=read[len(items) + j] != SWAP.get(read[i], read[i]))
    return stats


def main() -> None:
    if sys.argv[1:] == ["--lighteval-worker"]:
        return lighteval_worker()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adjudicated", type=Path, help="JSONL of {id, reading}: the target where `careful` is absent")
    parser.add_argument("--languages", help="comma-separated real4 languages (default: all)")
    args = parser.parse_args()
    folder = ROOT / raw_root() / "real4"  # an absolute $LM_EVAL_XLING_RAW stays as it is
    if not all((folder / name).is_file() for name in FILES):
        sys.exit(f"reader_peers: real4 replies not found in {folder} (set LM_EVAL_XLING_RAW to the folder with real4/)")
    items = load(folder, args.adjudicated, set(args.languages.split(",")) if args.languages else None)
    if not items:
        sys.exit(f"reader_peers: no replies in {args.languages} (real4 has {', '.join(LIGHTEVAL_LANGUAGE)}, kaa)")
    mirrorable = [i for i, r in enumerate(items) if r["letters"][:2] == ["A", "B"]]
    mirrored = [{**items[i], "reply": mirror(items[i]["reply"], items[i]["texts"]),
                 "texts": [items[i]["texts"][1], items[i]["texts"][0], *items[i]["texts"][2:]]}
                for i in mirrorable]  # fmt: skip

    readers = {"ours": ours, "lm-eval regex": lmeval_regex, "lm-eval mc_regex": lmeval_multi_choice_regex}
    readings = {name: read(items + mirrored) for name, read in readers.items()}
    live, why = lighteval(items + mirrored)
    for config in ("anchored", "no_anchor"):
        recorded = [r["recorded"][f"lighteval_{config}"] for r in items]
        readings[f"lighteval {config}" + ("" if live else " (recorded)")] = live.get(config, recorded)
    readings["simple-evals (reimpl.)"] = simple_evals(items + mirrored)
    stats = {name: tally(read, items, mirrorable) for name, read in readings.items()}

    print("| language | replies | answered |" + "".join(f" {n} agree | abst | commit | mirror |" for n in readings))
    print("|---|---:|---:|" + "---:|" * 4 * len(readings))
    for lang in [lang for lang, _ in Counter(r["language"] for r in items).most_common()] + ["all"]:
        first = stats["ours"][lang]
        cells = [lang, first["n"], first["answered"]]
        for s in (stats[name][lang] for name in readings):
            mirror_cell = s["mirror_fail"] if s["mirrored"] else "–"
            cells += [f"{s['agree'] / s['n']:.1%}", s["abstain"], s["commit"], mirror_cell]
        print("| " + " | ".join(map(str, cells)) + " |")
    print()
    for name in readings:
        s = stats[name]["all"]
        mirror_part = f"{s['mirror_fail']}/{s['mirrored']} mirror failures" if s["mirrored"] else "no mirror (recorded)"
        print(f"- {name}: agrees on {s['agree']}/{s['n']} ({s['agree'] / s['n']:.1%}); abstains on {s['abstain']} "
              f"of {s['answered']} answered; commits on {s['commit']} of {s['n'] - s['answered']} unanswered; "
              f"{mirror_part}")  # fmt: skip
    print(f"\nlighteval: {why}.")


if __name__ == "__main__":
    main()
