"""Synthetic PAWS-X and XNLI raw sources (one JSONL file per language), written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

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
