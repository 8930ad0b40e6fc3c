"""Every reply reader on adversarial replies of 10 KB and 1 MB: the time ratio is at most 100 where reading is linear
(replies are read on their last 50,000 characters, so a long reply costs no more than that), near 10,000 where it is
quadratic.

    python bench/parsers.py

Prints a markdown table: reader | reply | s at 10 KB | s at 1 MB | ratio, then the worst time on 1 MB.
"""

from __future__ import annotations

import time

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.answers import read_answer, standardize
from lm_eval_xling.xsense.translation_reply import clean_translation

TARGET = str.split("The canal cut the sea route between New York and San Francisco by about 13,000 kilometres .")
CASES = (  # (reader, the piece repeated, call)
    ("parse_variables", "answer: >", lambda text: parse_variables(text, ["X"])),
    ("parse_variables", "X: a; ", lambda text: parse_variables(text, ["X", "Y"])),
    ("parse_variables", "La respuesta es (a) ", lambda text: parse_variables(text, ["X"])),
    ("read_choice", "the answer is A or B ", lambda text: read_choice(text, ("A", "B"))),
    ("read_choice", "Option A (", lambda text: read_choice(text, ("A", "B"), ("Option A (x", "a b c d e f g"))),
    ("standardize", "yes or no ", lambda text: standardize(text, "pawsx", "en")),
    ("read_answer", "是否", lambda text: read_answer(text, "pawsx", "zh")),
    ("parse_binary", "correct or incorrect ", parse_binary),
    ("parse_binary", "nicht richtig, ", parse_binary),
    ("parse_likert", "3 out of 5 ", parse_likert),
    ("parse_likert", "drei von 5 Punkten ", parse_likert),
    ("read_spans", "New: a; b\n", lambda text: read_spans(text, TARGET)),
    ("read_spans", '"New York" new ', lambda text: read_spans(text, TARGET)),
    ("read_spans", "[NEW: the canal] ", lambda text: read_spans(text, TARGET)),
    ("read_spans", "new | sea route, ", lambda text: read_spans(text, TARGET)),
    ("read_spans", " ", lambda text: read_spans("a" + text + "x", TARGET)),
    ("clean_translation", "Translation: «Das» ", lambda text: clean_translation(text, "The cat sat.")),
    ("clean_translation", "Option 1: a\n", lambda text: clean_translation(text, "The cat sat.")),
    # the layouts of round 16: fenced diffs and CSV, tab-separated rows, ticks, lines a language identifier reads
    ("parse_binary", "```diff\n- Verdict: correct\n+ Verdict: wrong\n", parse_binary),
    ("parse_variables", '```csv\nX,"a, b"\n', lambda text: parse_variables(text, ["X"], "X", "Identify X.")),
    ("clean_translation", "src\tDie Katze sitzt.\n", lambda text: clean_translation(text, "The cat sat.", "de")),
    ("clean_translation", "❌ Le chat.\n✅ Le chat assis.\n", lambda text: clean_translation(text, "A cat sat.", "fr")),
    # round 17: box-drawing tables, emoji runs, hashtags, dashed rules without an end, Roman-numeral outlines
    ("read_spans", "│ the canal │ NEW │\n", lambda text: read_spans(text, TARGET)),
    ("parse_variables", "манас 💯💯💯 ", lambda text: parse_variables(text, ["X", "Y"], "X", "Identify X.")),
    ("clean_translation", "Le chat. 💧💧 #a #b x ", lambda text: clean_translation(text, "A cat.", "fr")),
    ("parse_binary", "-----===+++ ", parse_binary),
    ("clean_translation", "II. Traduction\n   Le chat.\n", lambda text: clean_translation(text, "A cat.", "fr")),
    ("clean_translation", "UPDATE: fixed:\nLe chat.\n", lambda text: clean_translation(text, "A cat.", "fr")),
    ("clean_translation", "Here it is:\nDie Katze saß.\n", lambda text: clean_translation(text, "The cat sat.", "de")),
    # round 18: LaTeX, speech markup, legal clauses, digits as verdicts, corrections that split a span
    ("read_spans", "\\item \\textbf{New}: ``the canal''\\footnote{x}\n", lambda text: read_spans(text, TARGET)),
    ("parse_variables", '<break time="1s"/><emphasis>Abai</emphasis> ', lambda text: parse_variables(text, ["X"])),
    ("parse_variables", "1.1 X is Abai.\n", lambda text: parse_variables(text, ["X", "Y"], "X", "Identify X.")),
    ("parse_binary", "Verdict: 1. ", parse_binary),
    ("read_spans", '"the canal cut" new. split: "the canal" inferable. ', lambda text: read_spans(text, TARGET)),
    ("clean_translation", '"Le chat." — a note (x) ', lambda text: clean_translation(text, "A cat.", "fr")),
    # round 19: data (log lines, calls, CSV, YAML, INI), subtitles, choices by key or ordinal
    ("read_spans", '2026-03-01T10:00:00Z [INFO] span="the canal" label=new\n', lambda text: read_spans(text, TARGET)),
    ("read_spans", 'label_span(text="the canal", label="new")\n', lambda text: read_spans(text, TARGET)),
    ("read_spans", "span,label\nthe canal,new\n", lambda text: read_spans(text, TARGET)),
    ("parse_variables", "answer:\n  - Abai\n", lambda text: parse_variables(text, ["X"])),
    ("parse_likert", "[result]\nscore = 4\n", parse_likert),
    ("parse_binary", "1\n00:00:01,000 --> 00:00:02,000\nCorrect.\n\n", parse_binary),
    ("clean_translation", 'candidate_1="Le chat." selected=candidate_1\n', lambda t: clean_translation(t, "A cat.")),
    # round 20: labelled lines at the end of a trace, agent steps, sources after the answer
    ("read_spans", 'új: "the canal"\n', lambda text: read_spans(text, TARGET)),
    ("parse_binary", "Thought: x\nObservation: y\n", parse_binary),
    ("clean_translation", "Le chat. [1]\nSources:\n[1] x\n", lambda t: clean_translation(t, "A cat.", "fr")),
    # round 21: quotes of others' words answered, closings, clauses, a letter's paragraphs
    ("parse_binary", "> Ana wrote:\n> Correct.\n\nNot sure.\n", parse_binary),
    ("read_spans", "Lo nuevo es «the canal»; lo inferible es «x»?\n", lambda text: read_spans(text, TARGET)),
    ("clean_translation", "Cher A,\n\nB.\n\n", lambda t: clean_translation(t, "Dear A,\n\nB.\n\nBest,\nC", "fr")),
    # round 22: a wrong codec, look-alike letters, loops, an echo before the translation
    ("parse_binary", "kÃ²rÃ¨k соrrесt Sc0re ", parse_binary),
    ("parse_likert", "Score: 3 Score: 3 Score: 3\n", parse_likert),
    ("clean_translation", "A cat. Le chat.\n", lambda t: clean_translation(t, "A cat.", "fr")),
    # round 23: transcripts, dictation, spans said aloud, a translation amid talk in another script
    ("read_spans", "new one is the canal was built and ", lambda text: read_spans(text, TARGET)),
    ("parse_likert", "[00:00:01] um i give it two comma ", parse_likert),
    ("clean_translation", "in Hindi you say नमस्ते that's namaste ", lambda t: clean_translation(t, "Hello.", "hi")),
    # round 24: two languages' versions
    ("parse_binary", "Sahihi. / Correct.\nEnglish translation: incorrect\n", parse_binary),
    ("parse_variables", "| La respuesta es Lima | The answer is Quito |\n", lambda t: parse_variables(t, ["X"])),
    ("read_spans", '**EN**\nNew: "the canal"\n**ES**\nNuevo: «the canal»\n', lambda text: read_spans(text, TARGET)),
)
SMALL, LARGE = 10_000, 1_000_000


def seconds(call, piece: str, size: int) -> float:
    text = piece * (size // len(piece))
    start = time.perf_counter()
    call(text)
    return time.perf_counter() - start


def main() -> None:
    print("| reader | reply | s at 10 KB | s at 1 MB | ratio |")
    print("|---|---|---:|---:|---:|")
    worst = (0.0, "")
    for name, piece, call in CASES:
        seconds(call, piece, LARGE)  # once before timing: patterns compiled, the language identifier loaded
        small, large = seconds(call, piece, SMALL), seconds(call, piece, LARGE)
        worst = max(worst, (large, f"{name} on {piece!r} x n"))
        print(f"| {name} | {piece!r} x n | {small:.4f} | {large:.3f} | {large / small:.0f} |")
    print(f"\nworst on 1 MB: {worst[0]:.3f} s ({worst[1]})")


if __name__ == "__main__":
    main()
