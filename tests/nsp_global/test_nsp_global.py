"""NSP Global: the dataset built from both published storybook formats, one question set for every language, a
language of your own, and the tasks through lm_eval."""

from __future__ import annotations

import importlib.util
import json
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from support.common import RAW, REPO, run_cli
from support.storybooks_data import MISALIGNED, story_pages, write_own_language, write_synthetic_storybooks

from lm_eval_xling.data.builders import builders
from lm_eval_xling.nsp_global.languages import LANGUAGES, PARTIAL

HUB_ID = "lm-eval-xling/nsp_global"
TASKS = REPO / "task_yamls" / "nsp_global"
needs_storybooks = pytest.mark.skipif(
    not (RAW / "storybooks").is_dir(), reason=f"real storybooks not found at {RAW / 'storybooks'} (LM_EVAL_XLING_RAW)"
)


def _builder():
    return builders()["nsp_global"]


def _generator():
    spec = importlib.util.spec_from_file_location("nsp_global_generate", TASKS / "_generate_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records(data: Path, language: str) -> list[dict]:
    return pq.read_table(data / HUB_ID / language / "test.parquet").to_pylist()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    raw = write_synthetic_storybooks(tmp_path_factory.mktemp("raw"))
    out = tmp_path_factory.mktemp("data")
    run_cli("lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(out), "--only", "nsp_global")
    return out


def _same_questions(records_by_language: dict[str, list[dict]]) -> None:
    """Every question id carries the same story, pages and answer letter in every language, and a language's
    questions are English's."""
    english = {r["id"]: r for r in records_by_language["en"]}
    keys = ("story", "context_start", "context_length", "answer_page", "distractor_page", "label")
    for language, records in records_by_language.items():
        assert len({r["id"] for r in records}) == len(records), language
        for r in records:
            assert r["id"] in english, (language, r["id"])
            assert {k: r[k] for k in keys} == {k: english[r["id"]][k] for k in keys}, (language, r["id"])


def test_both_formats_give_one_question_set_for_every_language(built):
    by_language = {language: _records(built, language) for language in ("en", "sw", "de")}
    _same_questions(by_language)
    # Algorithm 1 at page granularity: story 1 (12 pages) and 2 (8 pages) give questions, story 3 (5 pages) none
    counts = defaultdict(int)
    for r in by_language["en"]:
        counts[r["story"]] += 1
        assert 3 <= r["context_length"] <= 10 and 2 <= r["distractor_page"] - r["answer_page"] <= 9
        assert r["answer_page"] == r["context_start"] + r["context_length"]
    assert dict(counts) == {1: sum(12 - n - 2 for n in range(3, 10)), 2: sum(8 - n - 2 for n in range(3, 6))}
    # a story whose page count differs from English is left out of that language only
    assert {r["story"] for r in by_language["sw"]} == {1}
    assert {r["story"] for r in by_language["de"]} == {1, 2}
    assert ("sw", 2) in MISALIGNED


def test_options_and_context_are_the_languages_own_pages(built):
    for language in ("en", "sw", "de"):
        for r in _records(built, language):
            pages = story_pages(language, r["story"])
            options = {"A": r["option_a"], "B": r["option_b"]}
            assert options[r["label"]] == pages[r["answer_page"]]
            assert options["B" if r["label"] == "A" else "A"] == pages[r["distractor_page"]]
            start, length = r["context_start"], r["context_length"]
            assert r["context"] == " ".join(pages[start : start + length])
    labels = [r["label"] for r in _records(built, "en")]
    assert 0 < labels.count("A") < len(labels)  # the A/B order is drawn, not fixed


def test_records_carry_license_and_attribution(built):
    de = {r["story"]: r for r in _records(built, "de")}
    sw = {r["story"]: r for r in _records(built, "sw")}
    en = {r["story"]: r for r in _records(built, "en")}
    assert de[2]["license"] == "CC BY-NC 3.0" and de[1]["license"] == "CC BY 3.0"  # MASTER.md, with its version
    assert (de[1]["author"], de[1]["translator"], de[1]["source"]) == ("Author Number1", "Translator De", "global-asp")
    assert (sw[1]["author"], sw[1]["translator"], sw[1]["source"]) == (
        "Author Number1",
        "Translator Sw",
        "storybooks-site",
    )
    assert (en[1]["translator"], en[1]["title"]) == ("", "en story 1")
    # sw asks 28 of English's 34 questions: at least half, so not partial (a partial language: see below)
    assert not any(r["partial"] for language in ("en", "sw") for r in _records(built, language))


def test_a_question_does_not_depend_on_the_other_stories(tmp_path, built):
    """A question's draws are seeded by its id: a build without story 1 asks story 2's questions unchanged."""
    raw = write_synthetic_storybooks(tmp_path / "raw")
    for path in (raw / "storybooks").rglob("*"):
        if path.name in ("0001", "0001_geschichte.md"):
            path.rename(path.with_name("x" + path.name))  # no longer a story folder or file
    questions = {q.id: q for q in _builder().build_languages(raw / "storybooks")[1]}
    full = {r["id"]: r for r in _records(built, "en")}
    assert {q.story for q in questions.values()} == {2}
    for qid, q in questions.items():
        assert (q.distractor_page, q.label) == (full[qid]["distractor_page"], full[qid]["label"])


def test_the_build_reports_stories_left_out(tmp_path):
    raw = write_synthetic_storybooks(tmp_path / "raw")
    proc = run_cli(
        "lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(tmp_path / "d"), "--only", "nsp_global"
    )
    left_out = "nsp_global sw: 1 stories left out (page count differs from English): 0002 (7 pages in storybooks-site"
    assert f"{left_out}, English 8); 0 left out by content: -;" in proc.stderr
    card = (tmp_path / "d" / HUB_ID / "README.md").read_text(encoding="utf-8")
    assert "| sw | 2 | 28 | 28 |  | 0002 | - |" in card and "| 0002 | en story 2 | CC BY-NC 3.0 |" in card
    assert "config_name: de" in card


def _replace_page(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_story_that_tells_another_version_is_left_out_with_the_reason(tmp_path):
    """English's page count is not enough: a page printed twice where English has two pages (here with another page
    number than English's) leaves the story out of that language, with the reason in the build's output and the
    card; a language left with no question says so."""
    raw = write_synthetic_storybooks(tmp_path / "raw")
    german = story_pages("de", 1)
    _replace_page(raw / "storybooks/global-asp/de/0001_geschichte.md", german[4], german[3])
    swahili = story_pages("sw", 1)
    _replace_page(raw / "storybooks/storybooks-site/stories/sw/0001/index.html", swahili[2], swahili[2][:-2] + "7.")
    proc = run_cli(
        "lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(tmp_path / "d"), "--only", "nsp_global"
    )
    assert "1 left out by content: 0001 (page 5 writes 4 where English writes 5, in global-asp)" in proc.stderr
    assert "nsp_global sw: no question left: 0001 (page 3 writes 7 where English writes 3, in storybooks-site), " in (
        proc.stderr
    )
    assert {r["story"] for r in _records(tmp_path / "d", "de")} == {2}
    assert all(r["partial"] for r in _records(tmp_path / "d", "de"))  # 6 of English's 34 questions
    assert not (tmp_path / "d" / HUB_ID / "sw").exists()
    card = (tmp_path / "d" / HUB_ID / "README.md").read_text(encoding="utf-8")
    assert "| de | 2 | 6 | 6 | yes | - | 0001 |" in card
    assert "- de 0001 (page 5 writes 4 where English writes 5, in global-asp)" in card


def _story(pages: list[str], english: list[str] | None = None) -> object:
    return _builder().Story(1, "t", tuple(pages), "repo", "", "", "", tuple(english or ()))


def test_the_content_check_reads_refrains_own_english_and_length_in_any_script():
    differs, off_length = _builder().differs, _builder().off_length
    english = _story(["Who can I read to?", "My sister is asleep.", "Who can I read to?", "I read."])
    # a refrain kept, in another script and with other punctuation, is the same story; one broken is not
    assert differs(_story(["Кому я почитаю?", "Сестра спит.", "Кому я почитаю!", "Я читаю."]), english) is None
    retold = _story(["Mo ka pẹ̀lú ọ̀rẹ́ mi.", "Àbúrò mi ń sùn.", "Tani mo lè kàwé sí i?", "Mo ń kàwé."])
    assert differs(retold, english) == "pages 1 and 3 say the same in English, different things here"
    # a page printed twice where English has two different ones
    doubled = _story(["Кому я почитаю?", "Сестра спит.", "Кому я почитаю?", "Сестра спит."])
    assert differs(doubled, english) == "pages 2 and 4 say the same here, different things in English"
    # the English a website's file carries beside its pages must be the English story
    carried = ["Who can I read to?", "My brother plays.", "Who can I read to?", "I read."]
    assert differs(_story(["a b", "c d", "a b", "e"], carried), english) == (
        "page 2: the file's own English is not the English story's"
    )
    assert (
        differs(
            _story(["Ni nani?", "Dada yangu amelala.", "Ni nani?", "Mwaka ২০১১."]),
            _story(["Who?", "My sister is asleep.", "Who?", "In 2011."]),
        )
        is None
    )  # Bengali digits are 2011
    # a story far shorter (relative to English) than the language's others is an abridgement
    reference = {n: _story(["One two three four five six seven eight."] * 4) for n in range(1, 5)}
    stories = {n: _story(["Un deux trois quatre cinq six sept huit."] * 4) for n in range(1, 4)}
    stories[4] = _story(["Un deux."] * 4)
    assert off_length(stories, reference) == {4: "0.20 times English's length where the language's median is 1.00"}
    assert off_length(dict(list(stories.items())[2:]), reference) == {}  # 2 stories: no median to stand on


@pytest.mark.parametrize(
    ("where", "text", "expected"),
    [
        ("global-asp/de/0001_x.md", "no title\n##\npage\n", "global-asp/de/0001_x.md line 1: expected '# <title>'"),
        ("global-asp/de/0002_x.md", "# title only\n", "global-asp/de/0002_x.md: no page"),
        (
            "storybooks-site/stories/sw/0001/index.html",
            '<html><div id="text01"><span class="def">t</span></div><div id="text02"><h3>x</h3></div></html>',
            "storybooks-site/stories/sw/0001/index.html div#text02: no element of class 'def'",
        ),
        ("global-asp/de/0003_x.md", b"# t\n##\n\xff\n", "global-asp/de/0003_x.md:3: not UTF-8"),
        ("storybooks-site/stories/sw/0002/index.html", b"", "stories/sw/0002/index.html: not an HTML page"),
        ("storybooks-site/stories/sw/0003/index.html", b"<html>\xff</html>", "stories/sw/0003/index.html:1: not UTF-8"),
    ],
)
def test_a_malformed_story_is_one_line_naming_the_file_and_exit_2(tmp_path, where, text, expected):
    raw = write_synthetic_storybooks(tmp_path / "raw")
    path = raw / "storybooks" / where
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(path.name[:4] + "*"):
        old.unlink()
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    proc = run_cli("lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(tmp_path / "d"), check=False)
    assert proc.returncode == 2, proc.stderr
    assert expected in proc.stderr and "Traceback" not in proc.stderr


def test_a_language_of_your_own_builds_and_runs_with_no_code_change(tmp_path):
    """The README's example: two stories in the markdown format under the raw root, built, then run by lm_eval."""
    raw = write_synthetic_storybooks(tmp_path / "raw")
    folder = write_own_language(raw, "xx", (1, 2))
    assert sorted(p.name for p in folder.iterdir()) == ["0001_story.md", "0002_story.md"]
    data = tmp_path / "data"
    run_cli("lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(data), "--only", "nsp_global")
    records = _records(data, "xx")
    _same_questions({"en": _records(data, "en"), "xx": records})
    assert {r["story"] for r in records} == {1, 2} and records[0]["translator"] == ""
    assert records[0]["license"] == "CC BY 3.0"  # the story number's license (MASTER.md)
    tasks = tmp_path / "my_tasks"
    run_cli("python", str(TASKS / "_generate_config.py"), "--languages", "xx", "--out", str(tasks))
    out = tmp_path / "out"
    run_cli(
        "lm_eval", "--model", "dummy", "--include_path", str(tasks), "--tasks", "nsp_global_xx,nsp_global_xx_ll",
        "--limit", "4", "--output_path", str(out), "--log_samples",
        env={"LM_EVAL_XLING_DATA": str(data)},
    )  # fmt: skip
    results = json.loads(next(out.rglob("results_*.json")).read_text(encoding="utf-8"))["results"]
    assert {"acc,extract", "invalid,extract"} <= set(results["nsp_global_xx"])
    assert "acc,none" in results["nsp_global_xx_ll"]
    samples = [json.loads(line) for line in next(out.rglob("samples_nsp_global_xx_2*.jsonl")).read_text().splitlines()]
    assert [s["doc"]["id"] for s in samples] == [r["id"] for r in records[:4]]


def test_the_tasks_run_through_simple_evaluate(built, monkeypatch):
    import lm_eval

    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(built))
    results = lm_eval.simple_evaluate(
        model="dummy", tasks=["nsp_global_sw", "nsp_global_de_ll"], limit=3, log_samples=True
    )
    assert {"acc,extract", "invalid,extract"} <= set(results["results"]["nsp_global_sw"])
    prompt = results["samples"]["nsp_global_sw"][0]["arguments"][0][0]
    doc = results["samples"]["nsp_global_sw"][0]["doc"]
    assert prompt.startswith("Given the following story context:\n\n" + doc["context"])  # NSP's English frame
    assert prompt.endswith(
        "Only reply with a single letter: A or B. Do not say Neither, you have to reply with a single letter."
    )


def test_every_task_is_listed_and_validates():
    listed = {
        cell.strip() for line in run_cli("lm_eval", "ls", "tasks").stdout.splitlines() for cell in line.split("|")
    }
    tasks = [f"nsp_global_{language}{variant}" for language in LANGUAGES for variant in ("", "_ll")]
    assert set(tasks) | {"nsp_global", "nsp_global_african", "nsp_global_partial"} <= listed
    assert any(cell.endswith("nsp_global/partial/nsp_global_yo.yaml") for cell in listed)  # its location says so
    proc = run_cli("lm-eval", "validate", "--tasks", ",".join(["nsp_global", "nsp_global_african", *tasks]))
    assert "All tasks found and valid" in proc.stdout + proc.stderr


def test_groups_hold_full_languages_and_say_which_are_partial():
    full = yaml.safe_load((TASKS / "_nsp_global.yaml").read_text(encoding="utf-8"))
    african = yaml.safe_load((TASKS / "_nsp_global_african.yaml").read_text(encoding="utf-8"))
    assert full["task"] == [f"nsp_global_{lang}" for lang in LANGUAGES if lang not in PARTIAL]
    members = [task.removeprefix("nsp_global_") for task in african["task"]]
    assert {"sw", "am", "so", "om"} <= set(members) and not {"en", "de", "yo", "ha"} & set(members)
    assert not set(members) & set(PARTIAL)
    for path in TASKS.rglob("*.yaml"):
        assert path.read_text(encoding="utf-8").startswith("# Generated by _generate_config.py"), path
    for language in PARTIAL:
        task = yaml.safe_load((TASKS / "partial" / f"nsp_global_{language}.yaml").read_text(encoding="utf-8"))
        assert task["tag"] == ["nsp_global_partial"], language


@needs_storybooks
def test_real_build_one_question_set_in_every_language(tmp_path):
    built, questions = _builder().build_languages(RAW / "storybooks")
    assert len(questions) == 920 and len({q.story for q in questions}) == 37
    assert len(built) >= 50 and sum(not b.partial for b in built.values()) >= 40
    for language in ("en", "sw", "am", "so", "de", "zh", "yue", "fr"):
        assert len(built[language].records) == 920 and not built[language].partial, language
    assert built["yo"].partial and built["ha"].partial and built["ru"].partial  # ru: 400 of 920 questions
    # same page counts, another version of the story: Yoruba 0087 (a regional edition) and 0141 (an abridgement)
    assert [why[:4] for why in built["yo"].mismatched] == ["0087", "0141"]
    assert {r["story"] for r in built["yo"].records}.isdisjoint({87, 141})
    assert built["om"].mismatched == ["0110 (page 12 writes 2003 where English writes 2011, in storybooks-kenya)"]
    _same_questions({language: b.records for language, b in built.items()})
    nc = {r["story"] for r in built["en"].records if r["license"] == "CC BY-NC 3.0"}
    assert {2, 3, 9} <= nc  # SOURCE.txt names 0002, 0003, 0009, 0030 as CC BY-NC (0030 has 5 pages: no question)
    sw = {r["id"]: r for r in built["sw"].records}
    assert all(r["translator"] for r in sw.values()) and all(r["author"] for r in sw.values())


@needs_storybooks
def test_generated_files_are_in_sync_with_the_real_build():
    """The task YAMLs, groups, language list, card and eval.yaml are what the generator writes from the data."""
    files = _generator().generated(RAW)
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(REPO)} is stale: run {TASKS.name}/_generate_config.py"
        )
    assert set(TASKS.rglob("nsp_global_*.yaml")) == {p for p in files if p.name.startswith("nsp_global_")}
