# Hooks for these YAMLs, loaded by path by lm-eval; the code lives in the package (see the imports).
from lm_eval_xling.xsense.prompts import request_prompt, request_prompt_paper  # noqa: F401
from lm_eval_xling.xsense.tasks import (  # noqa: F401
    bleu,
    chrf,
    clean_translations,
    load,
    load_translation_requests,
    pawsx_answers,
    pawsx_answers_careful,
    pawsx_prompt,
    pawsx_prompt_paper,
    process_results,
    translation_results,
    xnli_answers,
    xnli_answers_careful,
    xnli_prompt,
    xnli_prompt_paper,
)
