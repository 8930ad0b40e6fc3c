"""Start-up hook that lets an unmodified lm-eval find our tasks without --include_path.

lm-eval 0.4.13 has no task plugin mechanism. The wheel installs `lm_eval_xling_autoinclude.pth`, which
imports this module at interpreter start. It only registers an import hook (nothing heavy is imported):
when `lm_eval.tasks.manager` is first imported, `TaskManager.__init__` is wrapped to scan our task folder
after lm-eval's own tasks and before any user `include_path`, so a user's task of the same name still wins.
Once lm-eval reads the `lm_eval.tasks` entry-point group (upstream PR #4015, declared in pyproject.toml),
the wrapper is not installed and the entry point alone registers the tasks. The same hook keeps lm-eval's index
of its own tasks on disk (`lm_eval_xling.task_index`). When `lm_eval.api.registry` is first imported, our filter
(`xling_choice`, lm_eval_xling/filters.py) is added to lm-eval's filter registry as a lazy "module:class" entry, so a
task's `filter_list` names it and the module is imported only when a task uses it.
"""

import functools
import importlib.abc
import importlib.machinery
import inspect
import sys
from pathlib import Path
from types import ModuleType

_MANAGER = "lm_eval.tasks.manager"
_REGISTRY = "lm_eval.api.registry"
_FILTERS = {"xling_choice": "lm_eval_xling.filters:ChoiceFilter"}
_ENTRY_POINT_GROUP = "lm_eval.tasks"


def _reads_task_entry_points(manager: ModuleType) -> bool:
    """True when this lm-eval discovers task folders from the `lm_eval.tasks` entry-point group itself."""
    sources = [Path(manager.__file__), Path(manager.__file__).with_name("_index.py")]
    return any(p.is_file() and f'"{_ENTRY_POINT_GROUP}"' in p.read_text(encoding="utf-8") for p in sources)


def _include_our_tasks(manager: ModuleType) -> None:
    task_manager = manager.TaskManager
    if getattr(task_manager, "_lm_eval_xling", False) or _reads_task_entry_points(manager):
        return
    original = task_manager.__init__
    signature = inspect.signature(original)

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        call = signature.bind(self, *args, **kwargs)
        call.apply_defaults()
        if call.arguments["include_defaults"]:
            from lm_eval_xling.config import task_dir

            user = call.arguments["include_path"]
            user = [] if user is None else list(user) if isinstance(user, (list, tuple)) else [user]
            call.arguments["include_path"] = [task_dir(), *user]
        original(*call.args, **call.kwargs)

    task_manager.__init__ = __init__
    task_manager._lm_eval_xling = True


def _patch_manager(manager: ModuleType) -> None:
    from lm_eval_xling.task_index import serve_builtin_index_from_cache

    _include_our_tasks(manager)
    serve_builtin_index_from_cache(manager)


def _register_filters(registry: ModuleType) -> None:
    for name, target in _FILTERS.items():
        if name not in registry.filter_registry:
            registry.filter_registry.register(name, target=target)


_PATCHES = {_MANAGER: _patch_manager, _REGISTRY: _register_filters}


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, inner: importlib.abc.Loader, patch):
        self._inner = inner
        self._patch = patch

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        self._inner.exec_module(module)
        self._patch(module)

    def __getattr__(self, name):  # get_source etc., for tracebacks and inspect
        return getattr(self._inner, name)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname not in _PATCHES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _PatchingLoader(spec.loader, _PATCHES[fullname])
        return spec


for _name, _patch in _PATCHES.items():
    if _name in sys.modules:
        _patch(sys.modules[_name])
if not all(_name in sys.modules for _name in _PATCHES) and not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
