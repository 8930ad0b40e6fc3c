"""The choice reader's structural rules, each in several languages and mirrored (the letters swapped, the answer
swaps), and the mends of misreadings found in real replies (each case is our own text in the real reply's shape)."""

from __future__ import annotations

import pytest

from lm_eval_xling.choices import read_choice

SWAP = str.maketrans("AB", "BA")


def both_ways(reply: str, expected: str | None, options=("A", "B"), texts=(), language=None) -> None:
    """`reply` reads `expected`, and with A and B swapped (letters and texts) the other one."""
    assert read_choice(reply, options, texts, language=language) == expected, reply
    swapped_texts = (texts[1], texts[0], *texts[2:]) if len(texts) >= 2 else texts
    mirrored = None if expected is None else expected.translate(SWAP)
    assert read_choice(reply.translate(SWAP), options, swapped_texts, language=language) == mirrored, reply


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("Javob: B) -4", "uz"),
        ("Juwap: **B) AQSH**", "kaa"),
        ("Жауап: B) Левшин", "kk"),
        ("Réponse : B", "fr"),
        ("Jawaab: B", "so"),
        ("Idahoo: B", None),  # a label in a language without a file: structure alone
    ],
)
def test_a_label_and_a_colon_before_one_option(reply: str, language: str | None) -> None:
    both_ways(reply, "B", ("A", "B", "C", "D"), language=language)


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("Waa B.", "so"),
        ("C'est la B.", "fr"),
        ("Doğru cevap B'dir.", "tr"),
        ("正解はBです。", "ja"),
        ("정답은 B입니다.", "ko"),
        ("ትክክለኛው መልስ B ነው።", "am"),
        ("After weighing both, I'd lean towards B.", "en"),
        ("The next sentence is most likely B.", "en"),
    ],
)
def test_the_letter_ending_the_last_statement(reply: str, language: str) -> None:
    both_ways(reply, "B", language=language)


@pytest.mark.parametrize(
    "reply",
    [
        "Let's look at A first. The girl in B",  # trails off: no finished statement
        "A B",
        "Is it B?",
        "If the girl were older, the answer would be B.",
        "It is not B.",
    ],
)
def test_a_letter_at_the_end_that_commits_to_nothing(reply: str) -> None:
    both_ways(reply, None)


def test_an_option_restated_with_its_own_text_on_the_last_line() -> None:
    texts = ("Yalnız I", "Yalnız III", "I ve II", "II ve III")
    reply = "I ifadesi doğrudur.\nII ifadesi yanlıştır.\nIII ifadesi doğrudur.\n\n**B) Yalnız III**"
    assert read_choice(reply, ("A", "B", "C", "D"), texts, language="tr") == "B"
    echo = "A) Yalnız I\nB) Yalnız III\nC) I ve II\nD) II ve III"
    assert read_choice(echo, ("A", "B", "C", "D"), texts, language="tr") is None  # an echo's last line is no answer


def test_a_first_line_answer_then_a_rationale_that_lists_the_other_options() -> None:
    texts = ("Malaria", "Typhoid fever", "Dengue", "Yellow fever")
    reply = (
        "B. Typhoid fever\n\nRationale: the stepwise fever and the rose spots point to typhoid.\n"
        "- A. Malaria gives a cyclical fever.\n- C. Dengue comes with severe joint pain.\n"
        "- D. Yellow fever brings jaundice."
    )
    assert read_choice(reply, ("A", "B", "C", "D"), texts) == "B"
    assert read_choice("A. Malaria\nB. Typhoid fever\nC. Dengue\nD. Yellow fever", ("A", "B", "C", "D"), texts) is None


def test_a_rationale_per_option_after_the_answer_is_no_later_commitment() -> None:
    reply = (
        "The correct answer is C.\n\nThe other options are not the correct answer:\n"
        "A. Scurvy comes from a lack of vitamin C.\nB. Rickets comes from a lack of vitamin D.\n"
        "D. Beriberi comes from a lack of thiamine."
    )
    assert read_choice(reply, ("A", "B", "C", "D")) == "C"


def test_an_abbreviation_is_no_option() -> None:
    reply = "E. coli rarely needs antibiotics here. Therefore, the answer is A."
    assert read_choice(reply, ("A", "B", "C", "D", "E")) == "A"
    assert read_choice("Shigella, not E. coli, is the answer: A.", ("A", "B", "C", "D", "E")) == "A"


def test_an_option_whose_text_holds_another_options_text() -> None:
    texts = ("yalnız II", "yalnız II ve III")
    both_ways("Doğru olanlar yalnız II ve III.", "B", texts=texts, language="tr")
    both_ways("Doğru olan yalnız II.", "A", texts=texts, language="tr")


def test_correct_and_incorrect_labels() -> None:
    both_ways("Correct option: A\nIncorrect option: B", "A")
    both_ways("Incorrect option: B\nCorrect option: A", "A")
    assert read_choice("The incorrect statement is C.", ("A", "B", "C", "D")) == "C"  # the answer to "which is wrong?"


def test_an_invented_follow_up_question_does_not_overturn_the_answer() -> None:
    reply = "Answer: B\n\nQuestion 2: Which animal lays eggs?\nA) Dog\nB) Hen\nAnswer: A"
    both_ways(reply, "B")


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("B değil, A'dır.", "tr"),
        ("B emas, javob A.", "uz"),
        ("Jibu si B, ni A.", "sw"),
        ("答案不是B，是A。", "zh"),
    ],
)
def test_a_negated_option_then_the_answer(reply: str, language: str) -> None:
    both_ways(reply, "A", language=language)


@pytest.mark.parametrize(("reply", "language"), [("Javob: A yoki B", "uz"), ("Cevap A veya B.", "tr")])
def test_two_options_joined_in_the_languages_words_are_no_commitment(reply: str, language: str) -> None:
    both_ways(reply, None, language=language)


ABCD = ("A", "B", "C", "D")


@pytest.mark.parametrize(
    ("reply", "language", "expected"),
    [
        ("Жооп: В", "ky", "B"),  # a Cyrillic look-alike
        ("Ответ: Б", "ru", "B"),
        ("Д) рәсем", "tt", "D"),
        ("Жауап: А", "kk", "A"),
        ("وەڵام: ب", "ckb", "B"),  # a script's own letters in their order
        ("پس گزینهٔ الف درست است.", "fa", "A"),
        ("คำตอบที่ถูกต้องคือ ค", "th", "C"),
        ("መልሱ ለ ነው።", "am", "B"),
        ("ਜਵਾਬ: ਅ", "pa", "B"),
        ("🅱️", None, "B"),
        ("Бұл өлеңді А. Құнанбаев жазған. Жауап: C", "kk", "C"),  # a name's initial is no option
    ],
)
def test_option_letters_of_other_scripts(reply: str, language: str | None, expected: str) -> None:
    assert read_choice(reply, ABCD, language=language) == expected


def test_struck_out_and_checked_options() -> None:
    both_ways("~~B~~ A — I misread it at first.", "A")
    both_ways("✅ A\n❌ B", "A")
    assert [read_choice(f"Option ({letter})") for letter in "ab"] == ["A", "B"]


@pytest.mark.parametrize(
    ("reply", "texts", "language", "expected"),
    [
        ("1945 (A)", ("1945", "1918", "1939", "1950"), None, "A"),
        ("Alternativ A (Glomma).", ("Glomma", "Otra", "Tana", "Lagen"), "nb", "A"),
        ("Õige vastus on B – Tallinn.", ("Tartu", "Tallinn", "Pärnu", "Narva"), "et", "B"),
        ("So the prime number is 29.", ("21", "27", "29", "33"), "en", "C"),
        ("$\\boxed{5}$", ("3", "4", "6", "5"), "en", "D"),
        ("False. It is a popular myth, the wall is far too narrow.", ("True", "False"), "en", "B"),
        ("A palindrome — for example 'level'.", ("Anagram", "Palindrome", "Homophone", "Acronym"), "en", "B"),
    ],
)
def test_an_options_short_text_where_it_can_only_be_that_option(reply, texts, language, expected) -> None:
    both_ways(reply, expected, ABCD[: len(texts)], texts, language)


def test_an_invented_question_after_the_answer() -> None:
    both_ways(
        "A is the natural continuation.\n\nFollow-up question: Which option would fit a fairy tale better?\n"
        "Answer: B, since magic would allow it.",
        "A",
    )
    # a list of other options, no question mark: the question asked was answered first
    both_ways(
        "C\n\nQuestion: Name the gas.\nA) 16\nB) 18\nC) 10\nD) 12\n\nAnswer: B", "C", ABCD, ("35", "17", "25", "26")
    )
    # a new question glued to the answer's sentence, after the question restated at the start
    both_ways(
        "Savol: ...?\nA) 2\nB) 3\nC) 4\nD) 5\nDemak, javob A.Savol: jism tezlanishi qancha?\nA) 2\nB) 4\nC) 6\nD) 8\n"
        "Yechim: ... Demak, javob B.",
        "A",
        ABCD,
        language="uz",
    )


def test_several_options_each_judged_correct_is_no_single_answer() -> None:
    reply = "A is incorrect, as it is rare.\nB is correct, as it causes it.\nC is correct, as it can also cause it."
    both_ways(reply, None, ABCD)


@pytest.mark.parametrize(
    ("reply", "texts", "language", "expected"),
    [
        (
            "Madrid, or maybe Barcelona — I always mix them up.",
            ("Barcelona", "Madrid", "Seville", "Valencia"),
            "en",
            None,
        ),
        ("Νομίζω ότι είναι το B, ο Σοφοκλής.", (), "el", "B"),
        ("Məncə, B — Xəzər ən böyük göldür.", (), "az", "B"),
        ("I'd lean toward A: higher rates reduce borrowing. B, C and D add to demand.", (), "en", "A"),
        (
            "Without knowing about folds or faults it's hard to be sure, but by the law of superposition, "
            "if I had to choose, B.",
            (),
            "en",
            "B",
        ),
    ],
)
def test_hedges(reply, texts, language, expected) -> None:
    both_ways(reply, expected, ABCD, texts, language)


@pytest.mark.parametrize(
    ("reply", "texts", "language", "expected"),
    [
        ("Impendulo ngu-B.", (), "zu", "B"),
        ("Ben B'yi seçerdim.", (), "tr", "B"),
        (
            "Transantarktida tog'lari **B) Kap** tog'ining davomi hisoblanadi.",
            ("Drakon", "Kap", "Alp", "And"),
            "uz",
            "B",
        ),
        ("1. Kontekst.\n2. Alternativ A er absurd.\nKonklusjon: B er den mest naturlige fortsettelsen.", (), "nb", "B"),
        ("4. **Жауап:** B, Франция республика болып жарияланды.", (), "kk", "B"),
        ("Javob: C) \\( \\frac{1.5}{a} \\).", (), "uz", "C"),
        ("The last option. The others are inert.", (), "en", "D"),
    ],
)
def test_statements_that_commit(reply, texts, language, expected) -> None:
    both_ways(reply, expected, ABCD, texts, language)


@pytest.mark.parametrize(
    "reply",
    [
        "Avogadro soni N<sub>A</sub> = 6.022·10<sup>23</sup> mol<sup>-1</sup>.",  # HTML's subscript is no field
        "Savol matni quyidagicha bo'lishi kerak:\na) ...\nb) ...\nc) ...\nShunda yordam beraman.",  # a template
        "Let's think. Option A involves",  # cut off
    ],
)
def test_replies_that_commit_to_nothing_new(reply: str) -> None:
    both_ways(reply, None, ABCD, language="uz" if "Savol" in reply else None)


def test_a_negated_mention_closing_the_reply_does_not_overturn_the_answer() -> None:
    both_ways("A. Budi ora nggawa payung, dadi ora mungkin garing kaya ing B.", "A", language="jv")


def test_item_references_in_a_rationale_are_no_later_answer() -> None:
    reply = "Answer: B\n\nWhy:\n- Amylase digests starch (d).\n- Pepsin, proteins (a).\n- Lipase, fats (b) digests."
    assert read_choice(reply, ABCD) == "B"
    assert read_choice(reply.replace("Answer: B", "Answer: A"), ABCD) == "A"


KENYA = ("Mombasa", "Nairobi", "Kisumu", "Nakuru")


@pytest.mark.parametrize(
    ("reply", "texts", "language"),
    [
        ("Isentensi efanele ngu-B, ngoba umfana ubelambile.", (), "zu"),
        ("Gbólóhùn B ló yẹ, nítorí pé ojú ọjọ́ ti ṣú.", (), "yo"),
        ("Кийинки сүйлөм B болушу керек.", (), "ky"),
        ("Ny fehezanteny (B) no manaraka.", (), "mg"),
        ("Câu đúng là câu B, vì cậu bé đang đói.", (), "vi"),
        ("應該係B囉，佢肚餓。", (), "yue"),
        ("Mujhe lagta hai B sahi hai, kyunki Ravi thak gaya tha. A doesn't fit here.", (), "hi"),
        ("Nairobi (B) ndio mji mkuu wa Kenya.", KENYA, "sw"),
        ("Nairobi ndio mji mkuu wa Kenya.", KENYA, "sw"),
        ("Nairobi ✅", KENYA, "sw"),
        ("Ngu-B, ngobe umfana bekalambile.", (), "ss"),  # a class prefix, capitalised
        ("Beraz, B-a da erantzun zuzena.", (), "eu"),  # a case ending after a hyphen
        ("B yw'r ateb cywir.", (), "cy"),  # a letter opening the sentence where it is no article
        ("A madaraknak két lábuk van, így a B-t jelölném be.", (), "hu"),  # "A" the article, "B-t" the answer
        ("Mji wa Kisumu uko magharibi. Kwa hiyo, B ndilo jibu langu.", KENYA, "sw"),  # another text, elsewhere
    ],
)
def test_a_short_reply_whose_last_statement_names_one_option(reply, texts, language) -> None:
    both_ways(reply, "B", ("A", "B", "C", "D"), texts, language=language)


@pytest.mark.parametrize(
    ("reply", "texts"),
    [
        ("Option B mentions the moon. Let me reread the story first.", ()),  # the reply goes on
        ("Sentence B is in the past tense, like the rest of the story.", ()),  # a description of B
        ("Let me start with B. It says the boy ran home.", ()),
        ("### Option B\nThe kite flew over the hill, which fits the windy day.", ()),  # a discussion's section
        ("Câu A hoặc câu B đều được.", ()),
        ("B week has seven days, so none of them.", ()),  # (a sentence's first letter may be an article)
        ("Nairobi ni mji mkubwa, lakini Mombasa iko pwani.", KENYA),  # two options' texts
        ("If the boy were hungry, B would fit.", ()),
    ],
)
def test_short_replies_that_name_one_option_without_stating_it(reply, texts) -> None:
    both_ways(reply, None, ("A", "B", "C", "D"), texts, language="en")


def test_a_statement_about_another_option_after_the_answer_is_no_answer() -> None:
    texts = ("雪山", "合歡山", "阿里山", "玉山")
    both_ways("正確答案：(D) 玉山，海拔約3952公尺。雪山 (A) 是第二高峰。", "D", ("A", "B", "C", "D"), texts, "zh")


def test_an_option_noun_with_its_ending_names_the_option() -> None:
    reply = "- گزینهٔ A (۱۲) نادرست است.\n- گزینهٔ C (۱۶) نادرست است.\n\n✅ **پاسخ: گزینهٔ B**"
    both_ways(reply, "B", ("A", "B", "C", "D"), ("۱۲", "۱۴", "۱۶", "۱۸"), "fa")
    assert read_choice("Ikkinchi gap to'g'ri keladi.", language="uz") == "B"  # "the second sentence fits"
    assert read_choice("Birinchi gap to'g'ri keladi.", language="uz") == "A"


def test_a_macrolanguage_code_reads_its_languages_words() -> None:
    both_ways("Hem A û B rast in.", None, ("A", "B", "C", "D"), language="ku")  # Kurdish "and": Kurmanji's file


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("Sobivad nii A kui ka B, mõlemad on loogilised.", "et"),  # joined by words of a language without a list
        ("Así que tanto la A como la B son correctas.", "es"),
        ("Hem A û B rast in.", None),
    ],
)
def test_options_joined_by_a_short_word_or_two_are_both_named(reply: str, language: str | None) -> None:
    both_ways(reply, None, ("A", "B", "C", "D"), language=language)


def test_an_ordinal_before_its_noun_is_read_before_a_letter() -> None:
    assert read_choice("A doua variantă: cățelul a adormit.", language="ro") == "B"  # "the second option"


def test_a_tables_one_checked_row_is_its_answer() -> None:
    table = "| Option | City | Capital? |\n|---|---|---|\n| A | Mombasa | ✗ |\n| B | Nairobi | ✓ |\n| C | Kisumu | ✗ |"
    both_ways(table, "B", ("A", "B", "C", "D"), KENYA)
    both_ways(table.replace("Mombasa | ✗", "Mombasa | ✓"), None, ("A", "B", "C", "D"), KENYA)  # two rows checked


@pytest.mark.parametrize(
    ("reply", "language"),
    [("ትክክለኛው መልስ፦ `B`", "am"), ("መልሲ፦ B (ኣስመራ)", "ti")],  # Ethiopic's preface colon
)
def test_a_label_with_its_scripts_own_colon(reply: str, language: str) -> None:
    both_ways(reply, "B", ("A", "B", "C", "D"), language=language)


@pytest.mark.parametrize(("reply", "language"), [("Jawaban: opsi ke-2.", "id"), ("گزینهٔ ۲", "fa"), ("Option 2", "en")])
def test_an_option_named_by_its_number_in_any_script(reply: str, language: str) -> None:
    assert read_choice(reply, ("A", "B", "C", "D"), language=language) == "B"


@pytest.mark.parametrize(
    ("reply", "language", "expected"),
    [
        ("B ni. Ọjọ́ méje ló wà nínú ọ̀sẹ̀ kan.", "yo", "B"),  # the answer in a few words, then its reasons
        ("B variantı. Avtobus getdiyi üçün qaçdı.", "az", "B"),
        ("Вариант B. Первый вариант не связан с сюжетом.", "ru", "B"),
        ("我先看看B。它说小狗跑回家。", "zh", None),  # a few characters hold a whole clause: looks at B first
        ("Option B: the boy ran home. This is about the dog.", "en", None),  # a label opening a discussion
    ],
)
def test_an_answer_first_then_its_reasons(reply: str, language: str, expected: str | None) -> None:
    both_ways(reply, expected, ("A", "B", "C", "D"), language=language)


OCEANS = ("Atlantic", "Indian Ocean", "Pacific Ocean", "Arctic")


def test_a_heading_labels_the_option_line_under_it() -> None:
    both_ways("## Odgovor\n\n**B) Indian Ocean**\n\nIt lies between Africa and Australia.", "B", ABCD, OCEANS, "hr")
    # a heading over a list that goes through the options is no label
    listing = "### Checking the options\n- **A) Atlantic**: west of Africa.\n- **B) Indian Ocean**: east of it."
    both_ways(listing, None, ABCD, OCEANS)


def test_a_line_of_a_script_without_capitals_is_not_shouting() -> None:
    """A chemical formula in a Chinese line leaves the line's letters as written ("CO2" is no shouted line)."""
    both_ways("选B……不对，CO₂是二氧化碳，水是H₂O，所以正确答案是A。", "A", ABCD, ("H₂O", "CO₂", "O₂", "NaCl"), "zh")
    both_ways("THE ANSWER IS B.", "B", ABCD)  # a shouted English line still reads


@pytest.mark.parametrize(
    ("reply", "language", "expected"),
    [
        ("ข้อ B ค่ะ เพราะเด็กหิวมาก", "th", "B"),  # a space parts Thai clauses; no full stop ends a Thai reply
        ("ข้อ B พูดถึงดวงจันทร์ ส่วนข้อ A", "th", None),
    ],
)
def test_a_space_parts_clauses_in_thai(reply: str, language: str, expected: str | None) -> None:
    both_ways(reply, expected, language=language)


def test_a_condition_before_a_dashed_option_is_no_answer() -> None:
    both_ways("Если считать только сушу — A, если всех животных — B.", None, ABCD, language="ru")
    both_ways("If I had to choose — B.", "B", ABCD)


def test_an_arabic_or_hebrew_proclitic_joined_to_a_letter() -> None:
    both_ways("يمكن اعتبار الخيارين A وB صحيحين.", None, ABCD, language="ar")  # "A and B": both
    both_ways("שתי האפשרויות A וB מתאימות.", None, ABCD, language="he")


def test_a_cyrillic_letter_in_its_alphabets_order_before_its_options_text() -> None:
    texts = ("Кисеоник", "Азот", "Угљен-диоксид", "Хелијум")
    assert read_choice("В) Угљен-диоксид", ABCD, texts, language="sr") == "C"
    assert read_choice("Г) Хелијум", ABCD, texts, language="sr") == "D"
    assert read_choice("В) Азот", ABCD, texts, language="kk") == "B"  # "В" for B, as Kazakh replies write it


def test_a_label_stored_in_every_options_text_is_the_presentations() -> None:
    """Sources that keep "a.\\t" in each text: the reply's "B. <text>" is that text however the options were ordered."""
    texts = ("a.\tLassa fever", "b.\tEbola virus disease", "c.\tDengue fever", "d.\tYellow fever")
    assert read_choice("A. a. Lassa fever\n\nRationale: it is endemic.", ABCD, texts) == "A"
    swapped = ("a.\tEbola virus disease", "b.\tLassa fever", *texts[2:])
    assert read_choice("B. b. Lassa fever\n\nRationale: it is endemic.", ABCD, swapped) == "B"
    assert read_choice("The correct options are:\nA. Lassa fever\nC. Dengue fever", ABCD, texts) is None


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("The correct answer is not A but B; the boy saw the child crying.", "en"),
        ("La respuesta no es A sino B.", "es"),
        ("Die Antwort ist nicht A, sondern B.", "de"),
        ("Cevap A değil, B.", "tr"),
        ("ትክክለኛው መልስ A ሳይሆን B ነው፤ ምክንያቱም ልጁ ያለቅሳል።", "am"),
    ],
)
def test_an_answer_that_takes_one_option_back_for_another(reply: str, language: str) -> None:
    both_ways(reply, "B", language=language)


def test_an_answer_that_only_takes_options_back_is_none() -> None:
    both_ways("The answer is not A.", None)
    both_ways("The answer is not A but not B either.", None)


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("A... oya, ndisubiyeko. B ni yo nyishu ikwiye kuko yari anezerewe.", "rn"),
        ("Отговор: A... Не. Отговор: B.", "bg"),
    ],
)
def test_an_option_taken_back_after_an_ellipsis(reply: str, language: str) -> None:
    both_ways(reply, "B", language=language)


def test_an_answer_sentence_with_a_word_that_commits_then_its_reasons() -> None:
    both_ways("B ni ìdáhùn tó tọ́. Ọlá láyọ̀ nítorí aṣọ tuntun náà.", "B", language="yo")
    both_ways("Option B says the boy ran. Then the story goes on.", None)  # no word that commits: a description


def test_a_nguni_copula_joined_to_the_letter() -> None:
    both_ways("Impendulo u-A ayinakwenzeka. Ngoko ke, eyona mpendulo ichanekileyo nguB.", "B", language="xh")


RIVERS = ("Noka ya Limpopo", "Noka ya Orange (Gariep)", "Noka ya Vaal", "Noka ya Olifants")
CAPITALS = ("Lagos", "Dodoma", "Kano", "Ibadan")


def test_texts_named_in_their_short_forms() -> None:
    both_ways("Noka ya Orange ke yona e telele kudu.", "B", ABCD, RIVERS, "nso")  # without the aside in brackets
    both_ways("The answer is B: Dodoma. Dodoma became the capital in 1996, replacing Lagos.", "B", ABCD, CAPITALS)
    both_ways("Hedkwatar Tanzaniya ita ce Dodoma ne.", "B", ABCD, CAPITALS, "ha")  # a short text before a copula


def test_a_hedge_over_two_options_offers_both() -> None:
    both_ways("E fit be Lagos or Dodoma sha. I no too sure which one.", None, ABCD, CAPITALS, "pcm")


def test_a_reply_ending_with_an_emoji_is_finished() -> None:
    both_ways("نهر النيل طبعاً 😊", "B", ABCD, ("نهر الأمازون", "نهر النيل", "نهر المسيسيبي", "نهر الفولغا"), "arz")


def test_a_list_whose_one_line_holds_a_check_mark() -> None:
    texts = ("Shark", "Dolphin", "Salmon", "Octopus")
    both_ways("- Shark: fish ✗\n- Dolphin: mammal ✓\n- Salmon: fish ✗\n\nDolphins breathe air.", "B", ABCD, texts)
