"""The lint configuration: `.project-corpus/lint.yaml` or `--config FILE` (docs/doctor.md).

PyYAML is imported only when a configuration file exists. Validation is strict: an unknown
key, a wrong type or an unknown code is `CONFIG_INVALID` (exit 2), never a guess. A check is
named by its code or its documented kebab-case name.
"""

from collections.abc import Mapping
from typing import NamedTuple
from typing import Protocol

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_CONFIG_BYTES
from project_corpus.core.records import SEVERITIES
from project_corpus.corpus import fs
from project_corpus.corpus.layout import LINT_CONFIG_PATH
from project_corpus.corpus.snapshot import paused_gc

DEFAULT_CONFIG_PATH = LINT_CONFIG_PATH
DEFAULT_STATUS_MAX_BYTES = 12_000
TOP_KEYS = (
    "rules",
    "ignore",
    "volatile_terms",
    "status_max_bytes",
    "status_max_age_days",
    "task_states",
)
# The one clock-dependent check runs only with a maximum age (`status_max_age_days` or
# `--max-status-age`): enabling it in `rules:` without one is a configuration mistake.
CLOCK_CODE = "STATUS_AGE"
RULE_VALUES = ("off", *reversed(SEVERITIES))
LANGUAGES = ("en", "ru")


class IgnoreRule(NamedTuple):
    """Findings whose path matches one of `paths` (fnmatch, `*` crosses `/`) and whose
    code is in `codes` (empty = every code that may be ignored) are suppressed."""

    paths: tuple[str, ...]
    codes: tuple[str, ...]


class RuleFacts(Protocol):
    """What the configuration needs to know of a check (the registry's `Check` has it)."""

    @property
    def name(self) -> str: ...

    @property
    def gate(self) -> bool: ...


class LintConfig(NamedTuple):
    path: str | None  # portable path of the file read, None for the defaults
    rules: dict[str, str]  # code -> off | WARN | FAIL
    ignore: tuple[IgnoreRule, ...]
    volatile_terms: dict[str, tuple[str, ...]]  # language -> terms replacing the defaults
    status_max_bytes: int
    status_max_age_days: int | None = None  # STATUS_AGE threshold; None = the check is off
    task_states: tuple[str, ...] = ()  # Task-Status values known beyond the protocol's


DEFAULT = LintConfig(None, {}, (), {}, DEFAULT_STATUS_MAX_BYTES)


def _invalid(path: str, detail: str) -> ContextError:
    return ContextError("CONFIG_INVALID", f"{path}: {detail}")


def load_config(root: str, user_path: str | None, checks: Mapping[str, RuleFacts]) -> LintConfig:
    """The configuration of ROOT: --config FILE, else lint.yaml when present, else defaults."""
    if user_path is not None:
        rel = fs.portable_input_path(root, user_path, code="CONFIG_INVALID")
    elif _exists(root, DEFAULT_CONFIG_PATH):
        rel = DEFAULT_CONFIG_PATH
    else:
        return DEFAULT
    data = fs.read_relative(root, rel, MAX_CONFIG_BYTES, code="CONFIG_INVALID")
    return parse_config(rel, _yaml(rel, data), checks)


def _exists(root: str, rel: str) -> bool:
    parent, _, name = rel.rpartition("/")
    try:
        with fs.open_dir(root, parent) as fd:
            return fs.entry_kind(fd, name) is not None
    except OSError:
        return False


def _yaml(rel: str, data: bytes) -> object:
    import yaml  # lazy: only when a configuration exists

    try:
        loader = yaml.SafeLoader(data.decode("utf-8"))
        # Composed once, checked, then constructed from the same nodes (it was parsed twice),
        # the collector paused as in `collect`: the nodes hold no cycles, and its rescans of
        # the growing heap made 4× the rules cost 5.4× (#26).
        try:
            with paused_gc():
                node = loader.get_single_node()
                _unique_keys(rel, node)
                return None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except UnicodeDecodeError as exc:
        raise _invalid(rel, f"not UTF-8 at byte {exc.start}") from None
    except yaml.YAMLError as exc:
        raise _invalid(rel, f"not valid YAML ({type(exc).__name__})") from None
    except RecursionError:  # PyYAML composes nested collections recursively
        raise _invalid(rel, "collections nested too deeply") from None


def _unique_keys(rel: str, root: object) -> None:
    """CONFIG_INVALID for a mapping that repeats a key (PyYAML would keep the last silently)."""
    import yaml

    todo, seen = [root], set()
    while todo:
        node = todo.pop()
        if not isinstance(node, yaml.Node) or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value in keys:
                    line = key.start_mark.line + 1
                    raise _invalid(rel, f"line {line}: duplicate key {key.value!r}")
                if isinstance(key, yaml.ScalarNode):
                    keys.add(key.value)
                todo.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)


def parse_config(rel: str, raw: object, checks: Mapping[str, RuleFacts]) -> LintConfig:
    """Validate a loaded YAML value (None = an empty file)."""
    if raw is None:
        return DEFAULT._replace(path=rel)
    if not isinstance(raw, dict):
        raise _invalid(rel, "the top level must be a mapping")
    unknown = sorted(str(key) for key in raw if key not in TOP_KEYS)
    if unknown:
        raise _invalid(rel, f"unknown key {unknown[0]!r}; allowed: {', '.join(TOP_KEYS)}")
    return LintConfig(
        rel,
        _rules(rel, raw.get("rules", {}), checks),
        _ignore(rel, raw.get("ignore", []), checks),
        _volatile_terms(rel, raw.get("volatile_terms", {})),
        _status_max_bytes(rel, raw.get("status_max_bytes", DEFAULT_STATUS_MAX_BYTES)),
        _max_age(rel, raw.get("status_max_age_days")),
        _task_states(rel, raw.get("task_states", [])),
    )


def resolve_code(text: str, checks: Mapping[str, RuleFacts]) -> str | None:
    """The code of a check given by its code or its kebab-case name (None when unknown)."""
    if text in checks:
        return text
    return next((code for code, facts in checks.items() if facts.name == text), None)


def with_max_age(config: LintConfig, days: int | None) -> LintConfig:
    """CONFIG with `--max-status-age DAYS` applied (it wins over the file); CONFIG_INVALID
    when STATUS_AGE is enabled in `rules:` but no maximum age is set anywhere."""
    if days is not None:
        if days < 0:
            raise ContextError("USAGE_ERROR", f"--max-status-age must be 0 or more, not {days}")
        config = config._replace(status_max_age_days=days)
    enabled = config.rules.get(CLOCK_CODE, "off") != "off"
    if enabled and config.status_max_age_days is None:
        raise _invalid(
            config.path or DEFAULT_CONFIG_PATH,
            f"rules.{CLOCK_CODE} needs `status_max_age_days: N` or --max-status-age N",
        )
    return config


def _code(rel: str, where: str, code: object, checks: Mapping[str, RuleFacts]) -> str:
    found = resolve_code(code, checks) if isinstance(code, str) else None
    if found is None:
        raise _invalid(rel, f"{where}: unknown check code or name {code!r}")
    return found


def _rules(rel: str, raw: object, checks: Mapping[str, RuleFacts]) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise _invalid(rel, "`rules` must be a mapping of CODE: off|WARN|FAIL")
    rules = {}
    for key, value in raw.items():
        code = _code(rel, "rules", key, checks)
        if code in rules:
            raise _invalid(rel, f"rules: {code} is given twice (by its code and its name)")
        setting = "off" if value is False else value  # YAML 1.1 reads a bare `off` as false
        if setting not in RULE_VALUES:
            raise _invalid(rel, f"rules.{code}: {value!r} is not one of off, WARN, FAIL")
        if checks[code].gate and setting != "FAIL":
            raise _invalid(
                rel,
                f"rules.{code}: a conformance gate code cannot be turned "
                "off or downgraded (every other command refuses the corpus)",
            )
        rules[code] = str(setting)
    return rules


def _string_list(rel: str, where: str, raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(v, str) and v.strip() for v in raw):
        raise _invalid(rel, f"{where} must be a list of non-empty strings")
    return tuple(raw)


def _ignore(rel: str, raw: object, checks: Mapping[str, RuleFacts]) -> tuple[IgnoreRule, ...]:
    if not isinstance(raw, list):
        raise _invalid(rel, "`ignore` must be a list of {paths: [...], codes: [...]}")
    rules = []
    for number, entry in enumerate(raw):
        where = f"ignore[{number}]"
        if not isinstance(entry, dict) or "paths" not in entry or set(entry) - {"paths", "codes"}:
            raise _invalid(rel, f"{where} must have `paths` and optionally `codes`, nothing else")
        paths = _string_list(rel, f"{where}.paths", entry["paths"])
        names = _string_list(rel, f"{where}.codes", entry.get("codes", []))
        codes = tuple(_code(rel, where, name, checks) for name in names)
        for code in codes:
            if checks[code].gate:
                raise _invalid(rel, f"{where}: conformance gate code {code} cannot be ignored")
        rules.append(IgnoreRule(paths, codes))
    return tuple(rules)


def _volatile_terms(rel: str, raw: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise _invalid(rel, "`volatile_terms` must be a mapping with `en` and/or `ru`")
    unknown = sorted(str(key) for key in raw if key not in LANGUAGES)
    if unknown:
        raise _invalid(rel, f"volatile_terms: unknown language {unknown[0]!r} (en, ru)")
    terms: dict[str, tuple[str, ...]] = {}
    for language, value in raw.items():
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise _invalid(rel, f"volatile_terms.{language} must be a list of non-empty strings")
        terms[str(language)] = tuple(v.strip() for v in value)
    return terms


def _status_max_bytes(rel: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise _invalid(rel, "`status_max_bytes` must be a positive integer")
    return raw


def _max_age(rel: str, raw: object) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise _invalid(rel, "`status_max_age_days` must be a whole number of days (0 or more)")
    return raw


def _task_states(rel: str, raw: object) -> tuple[str, ...]:
    """The extra Task-Status values: one line each, compared in any case (UNKNOWN_TASK_STATUS)."""
    states = _string_list(rel, "`task_states`", raw)
    if any("\n" in state or "\r" in state for state in states):
        raise _invalid(rel, "`task_states` values must be single lines")
    return tuple(sorted({state.strip() for state in states}))
