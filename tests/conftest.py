"""Shared fixtures: synthetic raw sources, locally built datasets, and small models built on the fly."""

from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# The real benchmark data lives beside the project; tests that need it skip where it is absent.
RAW = Path(os.environ.get("LM_EVAL_XLING_RAW", REPO.parent / "shared" / "data"))
needs_raw = pytest.mark.skipif(
    not (RAW / "nsp").is_dir(),
    reason=f"real benchmark data not found at {RAW} (set LM_EVAL_XLING_RAW)",
)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

# Words for synthetic stories, one vocabulary per language (written for these tests).
_WORDS = {
    "en": [
        "the",
        "child",
        "goat",
        "river",
        "market",
        "mother",
        "sang",
        "walked",
        "found",
        "a",
        "small",
        "red",
        "house",
        "tree",
    ],
    "sw": [
        "mtoto",
        "mbuzi",
        "mto",
        "soko",
        "mama",
        "aliimba",
        "alitembea",
        "alipata",
        "nyumba",
        "ndogo",
        "nyekundu",
        "mti",
    ],
    "ha": [
        "yaro",
        "akuya",
        "kogi",
        "kasuwa",
        "uwa",
        "ta",
        "rera",
        "ya",
        "tafi",
        "ya",
        "samu",
        "gida",
        "karami",
        "ja",
        "bishiya",
    ],
}


def write_synthetic_raw(root: Path, stories: int = 12, sentences: int = 16) -> Path:
    """A raw NSP source in the real layout: stories/<lang>.txt and nsp_<lang>_1000.csv (30 rows)."""
    rng = random.Random(7)
    for lang, words in _WORDS.items():
        story_texts = []
        for s in range(stories):
            lines = [
                f"{' '.join(rng.choices(words, k=rng.randint(3, 9))).capitalize()} {s}-{i}." for i in range(sentences)
            ]
            story_texts.append("\n\n".join(lines))
        path = root / "nsp" / "stories" / f"{lang}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(("\n\n" + "-" * 40 + "\n\n").join(story_texts), encoding="utf-8")
        with (root / "nsp" / f"nsp_{lang}_1000.csv").open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(
                ["story_id", "story_length", "context", "context_length", "distractor_distance",
                 "distractor_length", "option_A", "option_B", "label"]
            )  # fmt: skip
            for i in range(30):
                writer.writerow([i % stories, sentences, f"Context {lang} {i}.", 3, 2, 4,
                                 f"First {i}.", f"Second {i}.", "AB"[i % 2]])  # fmt: skip
    return root


def run_cli(*args: str, env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run an installed console script (lm_eval, lm-eval, lm-eval-xling) from this environment."""
    proc = subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=REPO,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
    return proc


def write_synthetic_quench(root: Path) -> Path:
    """A raw QUENCH source in the real layout: Data_Store/<q>.yml and isIndicAnnotations/<q>.yml (6 questions)."""
    import yaml

    questions = [
        ("Q1", "X is the river that flows through the city of Y.", {"X": "Thames", "Y": "London"}, "No"),
        ("Q2", "X wrote the national anthem of India.", {"X": "Rabindranath Tagore"}, "Yes"),
        ("Q3", "The festival X is celebrated with lamps in India.", {"X": "Diwali"}, "Yes"),
        ("Q4", "X painted the ceiling of the Sistine Chapel.", {"X": "Michelangelo"}, "No"),
        ("Q5", "X is the capital of France and Y its longest river.", {"X": "Paris", "Y": "Loire"}, "No"),
        ("Q6", "X is a dish of rice and lentils from South India.", {"X": "Pongal"}, "Yes"),
    ]
    for name, question, answers, indic in questions:
        record = {
            "metadata": "",
            "question": question,
            "question_source": f"https://example.org/{name}",
            "question_title": name,
            "themes": ["General"],
            "variables": list(answers),
            "variable_to_answer": answers,
            "variable_specific_rationale": {v: f"The clue points to {a}." for v, a in answers.items()},
        }
        for folder, content in (("Data_Store", record), ("isIndicAnnotations", {"id": f"{name}.yml", "indic": indic})):
            path = root / "quench" / folder / f"{name}.yml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(content), encoding="utf-8")
    return root


# (language, tokens) of a target paragraph written for these tests; labels cycle same/new/inf by sentence part
_XPARADE_TARGETS = {
    "en": [
        "The",
        "river",
        "flows",
        "through",
        "the",
        "old",
        "city",
        ".",
        "It",
        "was",
        "named",
        "after",
        "a",
        "king",
        "in",
        "1820",
        ".",
    ],
    "es": [
        "El",
        "río",
        "cruza",
        "la",
        "ciudad",
        "vieja",
        ".",
        "Recibió",
        "el",
        "nombre",
        "de",
        "un",
        "rey",
        "en",
        "1820",
        ".",
    ],
    "hi": [
        "नदी",
        "पुराने",
        "शहर",
        "से",
        "होकर",
        "बहती",
        "है",
        "।",
        "इसका",
        "नाम",
        "1820",
        "में",
        "एक",
        "राजा",
        "के",
        "नाम",
        "पर",
        "रखा",
        "गया",
        "।",
    ],
    "zh": ["河流", "穿过", "老城", "。", "它", "在", "1820年", "以", "一位", "国王", "命名", "。"],
}


def write_synthetic_xparade(root: Path, pairs: int = 3) -> Path:
    """A raw X-PARADE source in the real layout: complete_data_<lang>/<src>-<tgt>-adj-<split>.json."""
    for other in ("es", "hi", "zh"):
        for direction in (f"en-{other}", f"{other}-en"):
            source_lang, target_lang = direction.split("-")
            tokens = _XPARADE_TARGETS[target_lang]
            for split in ("dev", "test"):
                records = []
                for i in range(pairs):
                    keys = list(range(1, len(tokens) + 1))
                    labels = {"same": [0], "new": [], "inf": []}
                    for k in keys:
                        labels[("same", "new", "inf")[(k // 4 + i) % 3]].append(k)
                    spans = {"new information": labels["new"], "new information (inferable)": labels["inf"]}
                    records.append(
                        {
                            "tokens": {"0": f"{target_lang.upper()}:", **{str(k): tokens[k - 1] for k in keys}},
                            "text": " ".join(tokens),
                            "premise": " ".join(_XPARADE_TARGETS[source_lang]),
                            "pair_type": direction,
                            "pageid": str(100 + i),
                            "title": f"Page {i}",
                            "similarity": 0.5,
                            "annotations": [{"annotator_id": a, "comment": "", "spans": spans} for a in range(3)],
                            "labels": labels,
                            "translation3": "An English translation.",
                        }
                    )
                path = root / "xparade" / f"complete_data_{other}" / f"{direction}-adj-{split}.json"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return root


# PAWS-X-style items written for these tests, parallel across languages by position: (sentence, a paraphrase of
# it, the same words with two parts swapped so the meaning changes).
_PAWSX_ITEMS = {
    "en": [
        ("Anna gave the book to her brother after dinner.", "After dinner, Anna gave her brother the book.",
         "Her brother gave the book to Anna after dinner."),
        ("The train from Hamburg arrived in Munich two hours late.",
         "Two hours late, the train from Hamburg reached Munich.",
         "The train from Munich arrived in Hamburg two hours late."),
        ("The museum was founded in 1901 and moved to the harbour in 1950.",
         "Founded in 1901, the museum moved to the harbour in 1950.",
         "The museum was founded in 1950 and moved to the harbour in 1901."),
        ("Maria taught mathematics before she became the school's director.",
         "Before becoming the school's director, Maria taught mathematics.",
         "Maria became the school's director before she taught mathematics."),
        ("The small village lies north of the river and south of the forest.",
         "North of the river and south of the forest lies the small village.",
         "The small village lies south of the river and north of the forest."),
        ("Peter wrote the music and his sister wrote the lyrics.",
         "The music was written by Peter and the lyrics by his sister.",
         "Peter wrote the lyrics and his sister wrote the music."),
    ],
    "de": [
        ("Anna gab ihrem Bruder das Buch nach dem Abendessen.", "Nach dem Abendessen gab Anna ihrem Bruder das Buch.",
         "Ihr Bruder gab Anna das Buch nach dem Abendessen."),
        ("Der Zug aus Hamburg kam mit zwei Stunden Verspätung in München an.",
         "Mit zwei Stunden Verspätung erreichte der Zug aus Hamburg München.",
         "Der Zug aus München kam mit zwei Stunden Verspätung in Hamburg an."),
        ("Das Museum wurde 1901 gegründet und zog 1950 an den Hafen.",
         "Das 1901 gegründete Museum zog 1950 an den Hafen.",
         "Das Museum wurde 1950 gegründet und zog 1901 an den Hafen."),
        ("Maria unterrichtete Mathematik, bevor sie Direktorin der Schule wurde.",
         "Bevor sie Direktorin der Schule wurde, unterrichtete Maria Mathematik.",
         "Maria wurde Direktorin der Schule, bevor sie Mathematik unterrichtete."),
        ("Das kleine Dorf liegt nördlich des Flusses und südlich des Waldes.",
         "Nördlich des Flusses und südlich des Waldes liegt das kleine Dorf.",
         "Das kleine Dorf liegt südlich des Flusses und nördlich des Waldes."),
        ("Peter schrieb die Musik und seine Schwester schrieb den Text.",
         "Die Musik stammt von Peter und der Text von seiner Schwester.",
         "Peter schrieb den Text und seine Schwester schrieb die Musik."),
    ],
    "zh": [
        ("晚饭后安娜把书给了她的弟弟。", "安娜在晚饭后把书交给了弟弟。", "晚饭后她的弟弟把书给了安娜。"),
        ("从汉堡出发的火车晚了两个小时到达慕尼黑。", "汉堡开来的火车晚点两小时抵达慕尼黑。",
         "从慕尼黑出发的火车晚了两个小时到达汉堡。"),
        ("博物馆建于1901年，1950年迁到港口。", "这座1901年建立的博物馆于1950年搬到了港口。",
         "博物馆建于1950年，1901年迁到港口。"),
        ("玛丽亚在成为校长之前教数学。", "成为校长以前，玛丽亚是数学老师。", "玛丽亚在教数学之前成为了校长。"),
        ("小村庄位于河的北面、森林的南面。", "在河的北面和森林的南面坐落着小村庄。",
         "小村庄位于河的南面、森林的北面。"),
        ("彼得写了曲子，他的妹妹写了歌词。", "曲子是彼得写的，歌词是他妹妹写的。",
         "彼得写了歌词，他的妹妹写了曲子。"),
    ],
}  # fmt: skip


def write_synthetic_pawsx(root: Path) -> Path:
    """A raw PAWS-X source in the real layout: pawsx/test-<lang>.jsonl {id, sentence1, sentence2, label}.

    12 pairs per language (6 paraphrases, 6 not), parallel by position with the same ids in every language.
    """
    for lang, items in _PAWSX_ITEMS.items():
        records = []
        for i, (sentence, paraphrase, swapped) in enumerate(items):
            pairs = ((sentence, paraphrase, 1), (sentence, swapped, 0))
            for j, (first, second, label) in enumerate(pairs if i % 2 else pairs[::-1]):
                records.append({"id": 100 + 7 * (2 * i + j), "sentence1": first, "sentence2": second, "label": label})
        path = root / "pawsx" / f"test-{lang}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return root


# XNLI-style items written for these tests, parallel across languages by position: (premise, entailed hypothesis,
# neutral hypothesis, contradicting hypothesis).
_XNLI_ITEMS = {
    "en": [
        ("The bakery on the corner opens at six every morning.", "The bakery opens in the morning.",
         "The bakery sells the best bread in town.", "The bakery is closed every morning."),
        ("Tom missed the bus, so he walked to work in the rain.", "Tom went to work on foot.",
         "Tom was late for a meeting.", "Tom took the bus to work."),
        ("The children planted three apple trees in the school garden.", "Trees were planted in the school garden.",
         "The apple trees will bear fruit next year.", "The children cut down the trees in the garden."),
        ("The concert was cancelled because the singer was ill.", "The singer was sick.",
         "Many fans asked for a refund.", "The concert took place as planned."),
    ],
    "de": [
        ("Die Bäckerei an der Ecke öffnet jeden Morgen um sechs.", "Die Bäckerei öffnet am Morgen.",
         "Die Bäckerei verkauft das beste Brot der Stadt.", "Die Bäckerei ist jeden Morgen geschlossen."),
        ("Tom verpasste den Bus und ging deshalb im Regen zu Fuß zur Arbeit.", "Tom ging zu Fuß zur Arbeit.",
         "Tom kam zu spät zu einer Besprechung.", "Tom fuhr mit dem Bus zur Arbeit."),
        ("Die Kinder pflanzten drei Apfelbäume im Schulgarten.", "Im Schulgarten wurden Bäume gepflanzt.",
         "Die Apfelbäume werden nächstes Jahr Früchte tragen.", "Die Kinder fällten die Bäume im Garten."),
        ("Das Konzert wurde abgesagt, weil die Sängerin krank war.", "Die Sängerin war krank.",
         "Viele Fans verlangten ihr Geld zurück.", "Das Konzert fand wie geplant statt."),
    ],
    "zh": [
        ("街角的面包店每天早上六点开门。", "面包店早上开门。", "这家面包店卖城里最好的面包。",
         "面包店每天早上都关门。"),
        ("汤姆错过了公共汽车，所以冒雨步行去上班。", "汤姆走路去上班。", "汤姆开会迟到了。",
         "汤姆坐公共汽车去上班。"),
        ("孩子们在学校花园里种了三棵苹果树。", "学校花园里种了树。", "这些苹果树明年会结果。",
         "孩子们砍倒了花园里的树。"),
        ("音乐会因为歌手生病而取消了。", "歌手生病了。", "许多歌迷要求退款。", "音乐会按计划举行了。"),
    ],
}  # fmt: skip


def write_synthetic_xnli(root: Path) -> Path:
    """A raw XNLI source in the real layout: xnli/test-<lang>.jsonl {idx, premise, hypothesis, label}.

    12 pairs per language (4 per label: 0 entailment, 1 neutral, 2 contradiction), parallel by position.
    """
    for lang, items in _XNLI_ITEMS.items():
        records = []
        for i, (premise, *hypotheses) in enumerate(items):
            for k in range(3):
                label = (i + k) % 3  # each premise's hypotheses in a different label order
                records.append(
                    {"idx": len(records), "premise": premise, "hypothesis": hypotheses[label], "label": label}
                )
        path = root / "xnli" / f"test-{lang}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def synthetic_raw(tmp_path_factory) -> Path:
    raw = tmp_path_factory.mktemp("raw")
    write_synthetic_xparade(write_synthetic_quench(write_synthetic_raw(raw)))
    return write_synthetic_xnli(write_synthetic_pawsx(raw))


# Y-NQ-style text written for these tests: English and Yoruba sentences about one town and its river.
_YNQ_EN = [
    "The river Osun flows past the town of Osogbo in the south west of the country.",
    "Every year in August the people of the town hold a festival for the river.",
    "The king of the town leads the procession to the sacred grove beside the water.",
    "Artists from many countries have made sculptures that stand among the trees of the grove.",
    "The grove was named a world heritage site in the year two thousand and five.",
]
_YNQ_YO = [
    "Odò Ọ̀ṣun ń ṣàn kọjá ìlú Òṣogbo ní ìwọ̀ oòrùn gúúsù orílẹ̀-èdè náà.",
    "Ní oṣù Ògún ọdọọdún, àwọn ará ìlú máa ń ṣe ọdún fún odò náà.",
    "Ọba ìlú náà ló máa ń ṣáájú àwọn ènìyàn lọ sí igbó mímọ́ lẹ́bàá omi.",
    "Àwọn oníṣẹ́ ọnà láti ọ̀pọ̀ orílẹ̀-èdè ti gbẹ́ ère tí ó dúró láàrin àwọn igi igbó náà.",
]
# (English document words, Yoruba document words) per question: long English documents, two comparable pairs
YNQ_LENGTHS = [(9000, 300), (3000, 200), (1200, 120), (400, 90), (100, 60), (60, 40)]


def _ynq_text(sentences: list[str], words: int, seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < words:
        out.extend(rng.choice(sentences).split())
    return " ".join(out[:words])


def ynq_rows() -> list[dict[str, str]]:
    """Rows of a Y-NQ CSV in the card's schema (our own text), by the card's column names."""
    from lm_eval_xling.ynq import COLUMNS

    rows = []
    for i, (en_words, yo_words) in enumerate(YNQ_LENGTHS):
        values = [
            f"q{i}", "test", _ynq_text(_YNQ_EN, en_words, i), f"Who leads the procession to the grove ({i})?",
            _YNQ_EN[2], "the king", _ynq_text(_YNQ_YO, yo_words, i), "False", f"Ta ló ń ṣáájú lọ sí igbó ({i})?",
            "Ọba", _YNQ_YO[2], "paragraph 3", "aligned", "",
        ]  # fmt: skip
        rows.append(dict(zip(COLUMNS, values, strict=True)))
    return rows


def write_ynq_csv(path: Path, rows: list[dict[str, str]], header: list[str] | None = None) -> Path:
    """A Y-NQ CSV (`header` renames the columns, in the card's order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header or list(rows[0]))
        writer.writerows([list(row.values()) for row in rows])
    return path


@pytest.fixture(scope="session")
def data_root(tmp_path_factory, synthetic_raw) -> Path:
    """Datasets built by `lm-eval-xling data build` from the synthetic sources, and a Y-NQ CSV (not built: the
    Hub publishes it as it is)."""
    out = tmp_path_factory.mktemp("data")
    run_cli("lm-eval-xling", "data", "build", "--raw", str(synthetic_raw), "--out", str(out))
    write_ynq_csv(out / "facebook" / "Y-NQ" / "Yoruba_NQ.csv", ynq_rows())
    return out


@pytest.fixture
def local_data(monkeypatch, data_root) -> Path:
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(data_root))
    return data_root


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory, synthetic_raw) -> Path:
    """A 2-layer Llama with random weights and a byte-level BPE tokenizer trained on the synthetic stories."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    texts = [p.read_text(encoding="utf-8") for p in (synthetic_raw / "nsp" / "stories").glob("*.txt")]
    texts.append("Given the following story context: Which sentence comes next? A: B: Only reply Final answer")
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<unk>", "<s>", "</s>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    bpe.train_from_iterator(texts, trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="</s>"
    )
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=2,
    )
    torch.manual_seed(0)
    out = tmp_path_factory.mktemp("tiny-llama")
    LlamaForCausalLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
