"""Generate a maximum-size, conformant Project Corpus (Protocol V2) for benchmarks
(docs/performance.md).

    python benchmarks/generate.py OUT_DIR [--sources 2048] [--lines 50000] [--seed 1] [--force]

The output is deterministic for a given (sources, lines, seed): the same bytes every run.
It holds AGENTS.md, `.project-corpus/policy.toml`, PROJECT and STATUS, and Tasks, Reports and
History documents so that the scoped snapshot has exactly `--sources` files and slightly fewer
than `--lines` non-blank lines (the tool's hard limits are 2,048 sources and 50,000 non-blank
lines, docs/protocol.md). Text mixes English and Russian paragraphs, lists, tables and fenced code,
with a Zipf-like word distribution, a few `Supersedes:` chains and some volatile claims with
and without date labels. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import re
import shutil
import sys
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from random import Random

PROJECT_ID = "bench-corpus"
ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,63}$")
CORPUS = ".project-corpus"
SOURCE_DIRS = ("state", "tasks", "reports", "history")
LAST_VERIFIED = dt.datetime(2026, 7, 1, 9, 30, tzinfo=dt.UTC)
FIRST_DAY = dt.datetime(2025, 1, 6, 8, 0, tzinfo=dt.UTC)
LAST_DAY = dt.datetime(2026, 9, 1, 18, 0, tzinfo=dt.UTC)
PROJECT_LINES = 64
STATUS_LINES = 48


def _words(text: str) -> list[str]:
    return text.split()


EN_FUNC = _words(
    "the the the a a an of of of to to in in and and for with after before when under on "
    "by from is is was are were not only still also then than per via at into over"
)
EN_CONTENT = _words(
    "cache eviction policy latency throughput index query bundle report task status baseline "
    "benchmark regression memory budget token source snapshot digest hash provenance schema "
    "migration rollback deploy release pipeline build test fixture coverage lint finding "
    "warning error timeout retry queue worker scheduler shard replica node cluster region "
    "storage disk buffer page block segment compaction write read lock mutex thread process "
    "request response client server endpoint handler router config option flag default limit "
    "threshold quota metric counter histogram percentile trace span log audit receipt owner "
    "reviewer agent session context prompt model evaluation dataset case recall precision "
    "ranking score weight stemmer tokenizer parser heading section paragraph table list item "
    "line path file folder symlink permission scope capability profile grant trust root "
    "identity objective invariant constraint criterion acceptance goal blocker action next "
    "exact step plan decision tradeoff risk issue bug fix patch change diff commit branch "
    "merge review approval note summary evidence limitation result failure success experiment "
    "measurement run sample median peak floor ratio target machine core cpu rss sqlite "
    "database transaction fsync rename staging publication atomic durable stale fresh current "
    "previous old new historical superseded deterministic linear quadratic bounded strict "
    "portable stable hot cold warm large small slow fast measured verified reduced increased "
    "replaced rebuilt indexed cached evicted rejected accepted compared recorded reverted "
    "merged profiled tuned sharded throttled batched streamed hashed parsed ranked dropped "
    "kept moved split joined locked unlocked retried skipped failed passed flaky lru lfu "
    "arc ttl watermark backpressure prefetch warmup spill heap allocation fragmentation"
)
RU_FUNC = _words(
    "и и и в в в на на по по для с из не не это что как после до при без также уже ещё "
    "только все или но"
)
RU_CONTENT = _words(
    "кэш кэша кэше вытеснение вытеснения политика политики политику задержка задержки "
    "индекс индекса запрос запроса запросы отчёт отчёта задача задачи состояние состояния "
    "статус проект проекта источник источники снимок хеш память памяти бюджет токены "
    "сборка сборки тест тесты проверка проверки ошибка ошибки предупреждение сервер клиент "
    "очередь поток процесс диск страница блок сегмент запись чтение блокировка схема "
    "миграция откат выпуск релиз конвейер покрытие линтер находка метрика медиана пик "
    "порог лимит квота граница цель инвариант ограничение критерий приёмка шаг план решение "
    "риск исправление изменение ревью заметка итог доказательство результат замер "
    "эксперимент прогон машина ядро база данных транзакция публикация агент сессия "
    "контекст модель оценка набор ранжирование вес парсер заголовок раздел таблица список "
    "строка путь файл каталог права доступ владелец рецензент история архив версия "
    "устаревший новый старый быстрый медленный стабильный детерминированный линейный строгий "
    "полный частичный повторный холодный тёплый большой малый проверили измерили "
    "уменьшили увеличили заменили перестроили добавили удалили исправили обновили "
    "зафиксировали отклонили приняли запустили сравнили нужно следует можно требуется "
    "работает падает растёт снижается шардирование реплика узел кластер регион хранилище "
    "буфер уплотнение трассировка журнал аудит квитанция профиль доверие корень "
    "идентичность действие следующий точный шаги откатили прогрев выделение фрагментация"
)
# Shares of sentences with a volatile claim and of claims with a date label: ~200 claims in a
# maximum corpus, about half of them WARN findings.
VOLATILE = (0.006, 0.5)
EN_VOLATILE = ("currently", "right now", "at the moment", "today", "at present", "as of now")
RU_VOLATILE = ("сейчас", "сегодня", "на данный момент", "в данный момент", "текущая версия")
EN_LABELS = ("as of {d}", "verified {d}")
RU_LABELS = ("по состоянию на {d}", "проверено {d}")
EN_TEMPLATES = (
    "p95 latency of the {w} path dropped from {a} ms to {b} ms after the {w2} change.",
    "The {w} budget stays under {a} MiB on the reference machine with {k} workers.",
    "See {ref} for the previous {w} measurement.",
    "Run `{cmd}` before merging the {w} patch.",
    "Hit ratio of the {w} cache was {p}% with the {w2} eviction policy.",
    "Peak RSS reached {a} MB while the {w} index was rebuilt.",
)
RU_TEMPLATES = (
    "Задержка p95 для пути {w} снизилась с {a} мс до {b} мс после изменения {w2}.",
    "Бюджет {w} не превышает {a} МиБ на эталонной машине при {k} потоках.",
    "См. {ref}: там предыдущий замер для {w}.",
    "Перед слиянием нужно запустить `{cmd}`.",
    "Доля попаданий в кэш составила {p}% при политике вытеснения {w2}.",
    "Пиковая память достигла {a} МБ при перестроении индекса {w}.",
)
COMMANDS = (
    "project-corpus context build .",
    "project-corpus context doctor . --format text",
    "python -m pytest -q tests",
    "python benchmarks/run.py --repeat 5",
    "git log --oneline -n 20",
    "ruff check src tests",
)
HISTORY_SECTIONS = (
    "Context",
    "Decisions",
    "Notes",
    "Open Questions",
    "Timeline",
    "Контекст",
    "Решения",
    "Заметки",
    "Обсуждение",
    "Хронология",
)
TASK_SECTIONS = ("Objective", "Scope", "Constraints", "Acceptance Criteria")
REPORT_SECTIONS = ("Summary", "Evidence", "Limitations")


def _zipf(n: int) -> list[float]:
    """Cumulative Zipf-Mandelbrot weights 1 / (rank + 4) for n ranked words."""
    total = 0.0
    out = []
    for rank in range(n):
        total += 1.0 / (rank + 4)
        out.append(total)
    return out


@dataclass
class Doc:
    """A planned source: where it goes, its metadata lines, its sections and its line budget."""

    kind: str
    rel: str
    stem: str
    title: str
    meta: list[str]
    sections: list[str]
    ru_share: float
    target: int = 0
    crlf: bool = False
    extra: dict[str, str] = field(default_factory=dict)

    def preset(self, heading: str) -> list[str]:
        """Fixed lines that open a section (citations, the exact next action), if any."""
        return self.extra[heading].split("\n") if heading in self.extra else []

    def minimums(self) -> list[int]:
        """Least number of content lines per section: its preset lines, at least one."""
        return [max(1, len(self.preset(h))) for h in self.sections]

    def fixed_lines(self) -> int:
        """Non-blank lines of the skeleton: H1, metadata, headings and minimal content."""
        return 1 + len(self.meta) + len(self.sections) + sum(self.minimums())


class Text:
    """Seeded sentence and block generator (owns the Random instance)."""

    def __init__(
        self, rng: Random, refs: Sequence[str], volatile: tuple[float, float] = VOLATILE
    ) -> None:
        self.rng = rng
        self.refs = refs
        self.volatile, self.labelled = volatile
        self.en = list(EN_CONTENT)
        self.ru = list(RU_CONTENT)
        rng.shuffle(self.en)
        rng.shuffle(self.ru)
        self.en_cw = _zipf(len(self.en))
        self.ru_cw = _zipf(len(self.ru))
        self.ru_share = 0.5

    def word(self, ru: bool) -> str:
        if ru:
            return self.rng.choices(self.ru, cum_weights=self.ru_cw)[0]
        return self.rng.choices(self.en, cum_weights=self.en_cw)[0]

    def _template(self, ru: bool) -> str:
        rng = self.rng
        tpl = rng.choice(RU_TEMPLATES if ru else EN_TEMPLATES)
        a = rng.randint(3, 400)
        return tpl.format(
            w=self.word(False),
            w2=self.word(ru),
            a=a,
            b=max(1, a - rng.randint(1, a)),
            k=rng.randint(1, 64),
            p=rng.randint(40, 99),
            ref=rng.choice(self.refs),
            cmd=rng.choice(COMMANDS),
        )

    def _volatile(self, ru: bool) -> str:
        rng = self.rng
        term = rng.choice(RU_VOLATILE if ru else EN_VOLATILE)
        if rng.random() < self.labelled:
            day = (FIRST_DAY + dt.timedelta(days=rng.randint(0, 600))).date().isoformat()
            term += " (" + rng.choice(RU_LABELS if ru else EN_LABELS).format(d=day) + ")"
        return term

    def sentence(self) -> str:
        rng = self.rng
        ru = rng.random() < self.ru_share
        if rng.random() < 0.08:
            return self._template(ru)
        words = []
        func = RU_FUNC if ru else EN_FUNC
        for _ in range(rng.randint(5, 14)):
            if rng.random() < 0.3:
                words.append(rng.choice(func))
            else:
                words.append(self.word(ru and rng.random() > 0.08))
        if rng.random() < self.volatile:
            words.insert(rng.randint(1, len(words)), self._volatile(ru))
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def line(self, sentences: int = 0) -> str:
        count = sentences or self.rng.randint(1, 3)
        return " ".join(self.sentence() for _ in range(count))

    def title(self, words: int = 0) -> str:
        ru = self.rng.random() < self.ru_share
        text = " ".join(self.word(ru) for _ in range(words or self.rng.randint(2, 4)))
        return text[0].upper() + text[1:]


def block_paragraph(t: Text, n: int) -> list[str]:
    size = min(n, t.rng.randint(1, 4))
    if t.rng.random() < 0.003:
        return [t.line(30)]  # one line over 1,200 characters
    return [t.line() for _ in range(size)]


def block_list(t: Text, n: int) -> list[str]:
    rng = t.rng
    size = min(n, rng.randint(2, 7))
    style = rng.choice(("- ", "* ", "+ ", "1. ", "- [ ] ", "- [x] "))
    out: list[str] = []
    number = 1
    while len(out) < size:
        marker = f"{number}. " if style == "1. " else style
        out.append(marker + t.line(1))
        number += 1
        if len(out) < size and rng.random() < 0.2:
            out.append(" " * len(marker.split(" ")[0]) + " " + t.line(1))
    return out


def block_table(t: Text, n: int) -> list[str]:
    rng = t.rng
    size = min(n, rng.randint(4, 9))
    if size < 3:
        return block_paragraph(t, n)
    ru = rng.random() < t.ru_share
    head = (
        ("Метрика", "До", "После", "Комментарий") if ru else ("Metric", "Before", "After", "Note")
    )
    out = ["| " + " | ".join(head) + " |", "|---|---:|---:|---|"]
    for _ in range(size - 2):
        a = rng.randint(2, 900)
        b = rng.randint(2, 900)
        note = " ".join(t.word(ru) for _ in range(rng.randint(1, 4)))
        out.append(f"| p95 {t.word(False)} | {a / 10:.1f} ms | {b / 10:.1f} ms | {note} |")
    return out


def _code_line(t: Text, lang: str) -> str:
    rng = t.rng
    w1, w2 = t.word(False), t.word(False)
    if rng.random() < 0.1:
        return f"# {w1} {w2} {t.word(True)}"
    lines = {
        "bash": f"{rng.choice(COMMANDS)} # {w1}",
        "python": f"{w1}_{w2} = compute_{w1}(limit={rng.randint(1, 999)})",
        "toml": f'{w1}_{w2} = "{t.word(True)}"',
        "sql": f"SELECT path, sha256 FROM sources WHERE type = '{w1}' LIMIT {rng.randint(1, 99)};",
        "json": f'{{"{w1}": {rng.randint(0, 9999)}, "{w2}": "{t.word(True)}"}}',
        "text": f"{w1}.{w2}: {rng.randint(0, 99999)} ops/s, {rng.randint(1, 999)} ms",
    }
    return lines[lang]


def block_code(t: Text, n: int) -> list[str]:
    size = min(n, t.rng.randint(4, 16))
    if size < 3:
        return block_paragraph(t, n)
    lang = t.rng.choice(("bash", "python", "toml", "sql", "json", "text"))
    return ["```" + lang] + [_code_line(t, lang) for _ in range(size - 2)] + ["```"]


def block_quote(t: Text, n: int) -> list[str]:
    return ["> " + t.line() for _ in range(min(n, t.rng.randint(1, 2)))]


BLOCKS: tuple[tuple[Callable[[Text, int], list[str]], int], ...] = (
    (block_paragraph, 46),
    (block_list, 28),
    (block_table, 8),
    (block_code, 8),
    (block_quote, 3),
)
BLOCK_CW = [sum(w for _, w in BLOCKS[: i + 1]) for i in range(len(BLOCKS))]


def fill(t: Text, n: int, subheadings: bool = True) -> list[str]:
    """Markdown blocks with exactly n non-blank lines, each block followed by a blank line."""
    out: list[str] = []
    while n > 0:
        if subheadings and n >= 4 and t.rng.random() < 0.06:
            block = ["### " + t.title()]
        else:
            make = t.rng.choices([b for b, _ in BLOCKS], cum_weights=BLOCK_CW)[0]
            block = make(t, n)
        out.extend(block)
        out.append("")
        n -= len(block)
    return out


def split_budget(rng: Random, total: int, minimums: list[int]) -> list[int]:
    """Split TOTAL lines into shares of at least MINIMUMS with random weights (sum == total)."""
    weights = [rng.uniform(0.4, 1.6) for _ in minimums]
    spare = total - sum(minimums)
    scale = sum(weights)
    shares = [m + int(spare * w / scale) for m, w in zip(minimums, weights, strict=True)]
    for i in range(total - sum(shares)):
        shares[i % len(shares)] += 1
    return shares


def render(t: Text, doc: Doc, subheadings: bool = True) -> str:
    t.ru_share = doc.ru_share
    lines = ["# " + doc.title, "", *doc.meta, ""]
    content = doc.target - 1 - len(doc.meta) - len(doc.sections)
    shares = split_budget(t.rng, content, doc.minimums())
    for heading, share in zip(doc.sections, shares, strict=True):
        preset = doc.preset(heading)
        lines.extend(["## " + heading, ""])
        if preset:
            lines.extend([*preset, ""])
        lines.extend(fill(t, share - len(preset), subheadings))
    text = "\n".join(lines).rstrip("\n") + "\n"
    return text.replace("\n", "\r\n") if doc.crlf else text


def stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def moment_at(rng: Random, fraction: float) -> dt.datetime:
    """A time at FRACTION of the corpus period, with a few days of jitter."""
    span = (LAST_DAY - FIRST_DAY).total_seconds()
    seconds = span * fraction + rng.uniform(-3, 3) * 86400
    moment = FIRST_DAY + dt.timedelta(seconds=min(max(seconds, 0), span))
    return moment.replace(microsecond=0)


def slug(rng: Random, words: int) -> str:
    return "-".join(rng.choice(EN_CONTENT) for _ in range(words))


def counts(sources: int) -> tuple[int, int, int]:
    """Numbers of tasks, reports and history documents (PROJECT and STATUS take two)."""
    rest = sources - 2
    tasks = max(1, rest * 20 // 100)
    reports = max(1, rest * 58 // 100)
    return tasks, reports, rest - tasks - reports


def plan_tasks(rng: Random, n: int) -> list[Doc]:
    docs = []
    for i in range(n):
        stem = f"task-{i + 1:04d}-{slug(rng, rng.randint(1, 3))}"
        created = moment_at(rng, i / max(1, n))
        status = "DONE" if created < LAST_VERIFIED and rng.random() < 0.8 else "OPEN"
        meta = [
            "Protocol-Version: 2.0",
            f"Project-ID: {PROJECT_ID}",
            f"Task-ID: {stem}",
            f"Task-Status: {status}",
            f"Created-At: {stamp(created)}",
        ]
        rel = f"{CORPUS}/tasks/{stem}.md"
        title = "Task: " + stem.split("-", 2)[2].replace("-", " ")
        docs.append(Doc("task", rel, stem, title, meta, list(TASK_SECTIONS), rng.random()))
    return docs


def plan_reports(rng: Random, n: int, tasks: list[Doc]) -> list[Doc]:
    docs = []
    for i in range(n):
        stem = f"rep-{i + 1:04d}-{slug(rng, rng.randint(1, 3))}"
        fraction = i / max(1, n)
        task = tasks[min(len(tasks) - 1, int(fraction * len(tasks)))]
        folder = "reports/archive" if fraction < 0.1 else "reports"
        meta = [
            "Protocol-Version: 2.0",
            f"Project-ID: {PROJECT_ID}",
            f"Report-ID: {stem}",
            f"Result: {rng.choice(('PASS', 'PASS', 'PASS', 'FAIL', 'PARTIAL'))}",
            f"Task-ID: {task.stem}",
            f"Created-At: {stamp(moment_at(rng, fraction + 0.01))}",
        ]
        if rng.random() < 0.05:
            meta.append("Freshness-Requirement: re-run the benchmark before quoting figures")
        rel = f"{CORPUS}/{folder}/{stem}.md"
        title = "Report: " + stem.split("-", 2)[2].replace("-", " ")
        doc = Doc("report", rel, stem, title, meta, list(REPORT_SECTIONS), rng.random())
        doc.crlf = rng.random() < 0.01
        docs.append(doc)
    return docs


def plan_history(rng: Random, n: int) -> list[Doc]:
    docs = []
    for i in range(n):
        day = moment_at(rng, i / max(1, n)).date()
        kind = rng.choice(("notes", "decision", "retro", "meeting", "log"))
        stem = f"{day.isoformat()}-{kind}-{i + 1:04d}"
        sections = rng.sample(HISTORY_SECTIONS, rng.randint(1, 4))
        rel = f"{CORPUS}/history/{day.year}/{stem}.md"
        meta = [f"Date: {day.isoformat()}"]
        doc = Doc("history", rel, stem, f"History {kind} {day}", meta, sections, rng.random())
        doc.crlf = rng.random() < 0.01
        docs.append(doc)
    return docs


def add_chains(rng: Random, docs: list[Doc], chains: int, banned: set[str]) -> None:
    """Add `Supersedes:` chains (newer supersedes older) over distinct, allowed documents."""
    pool = [i for i, d in enumerate(docs) if d.rel not in banned]
    picked = sorted(rng.sample(pool, min(len(pool), chains * 4)))
    rng.shuffle(picked)
    for c in range(chains):
        members = sorted(picked[c * 4 : c * 4 + rng.randint(2, 4)])
        for older, newer in itertools.pairwise(members):
            docs[newer].meta.append(f"Supersedes: {docs[older].rel}")


def assign_targets(rng: Random, docs: list[Doc], budget: int) -> None:
    """Give every document a non-blank line target; the targets sum to exactly BUDGET."""
    factor = {"task": 1.3, "report": 1.0, "history": 0.7}
    weights = []
    for doc in docs:
        w = factor[doc.kind] * rng.lognormvariate(0, 0.5)
        weights.append(w * 8 if rng.random() < 0.01 else w)
    fixed = sum(d.fixed_lines() for d in docs)
    spare = budget - fixed
    if spare < 0:
        raise SystemExit(f"--lines too small: the skeletons alone need {fixed} lines")
    scale = sum(weights)
    for doc, w in zip(docs, weights, strict=True):
        doc.target = doc.fixed_lines() + int(spare * w / scale)
    for i in range(budget - sum(d.target for d in docs)):
        docs[i % len(docs)].target += 1


def project_doc() -> Doc:
    meta = [
        "Protocol-Version: 2.0",
        f"Project-ID: {PROJECT_ID}",
        "Logical-Name: Benchmark corpus — кэш, политика вытеснения и задержка",
    ]
    sections = ["Objective", "Invariants", "Durable Scope Boundaries", "Non-Goals"]
    doc = Doc("state", f"{CORPUS}/state/PROJECT.md", "PROJECT", "PROJECT", meta, sections, 0.4)
    doc.target = PROJECT_LINES
    doc.extra["Objective"] = (
        "Keep the cache eviction policy latency within budget for every tenant.\n"
        "Цель проекта: предсказуемая задержка и стабильная политика вытеснения кэша."
    )
    return doc


def status_doc(active: Doc, full: list[Doc], bare: list[Doc]) -> Doc:
    meta = [
        "Protocol-Version: 2.0",
        f"Project-ID: {PROJECT_ID}",
        "Lifecycle-Status: ACTIVE",
        f"Active-Task-ID: {active.stem}",
        f"Last-Verified-At: {stamp(LAST_VERIFIED)}",
        "Evidence-Class: OBSERVED",
    ]
    sections = ["Current Verified Baseline", "Blockers", "Evidence References", "Exact Next Action"]
    doc = Doc("state", f"{CORPUS}/state/STATUS.md", "STATUS", "STATUS", meta, sections, 0.5)
    doc.target = STATUS_LINES
    refs = [f"- {d.rel} — full report on {d.title.split(': ', 1)[1]}" for d in full]
    refs += [f"- {d.stem} — cited by Report-ID" for d in bare]
    doc.extra["Current Verified Baseline"] = (
        "Текущее состояние: индекс перестроен, политика вытеснения LRU проверена на эталоне.\n"
        "The current state is verified: p95 eviction latency is 41 ms on the reference machine."
    )
    doc.extra["Evidence References"] = "\n".join(refs)
    doc.extra["Exact Next Action"] = (
        f"Run the eviction policy latency benchmark for {active.stem} with "
        f"`python benchmarks/run.py --repeat 5` and record the figures in a new report under "
        f"{CORPUS}/reports/ before changing the cache budget."
    )
    return doc


def write_static(out: Path) -> None:
    corpus = out / CORPUS
    for name in SOURCE_DIRS:
        (corpus / name).mkdir(parents=True, exist_ok=True)
    (out / "AGENTS.md").write_text(
        "# Agents\n\nThis project keeps its durable memory in `.project-corpus/` (Protocol V2).\n"
        "Read `.project-corpus/state/PROJECT.md` and `.project-corpus/state/STATUS.md` first.\n"
        "Context from `project-corpus context` is a pointer, never an authority.\n",
        encoding="utf-8",
    )
    scopes = ", ".join(f'"{CORPUS}/{name}/**"' for name in SOURCE_DIRS)
    (corpus / "policy.toml").write_text(
        'policy_version = "2.0"\n'
        f'project_id = "{PROJECT_ID}"\n'
        'profile = "READ_ONLY"\n'
        "[capabilities]\n"
        'allow = ["corpus.context"]\n'
        "[scopes]\n"
        f"read = [{scopes}]\n"
        "write = []\n"
        "[requirements]\n"
        "expected_hash = true\n"
        "verified_readback = true\n"
        "audit_receipt = true\n",
        encoding="utf-8",
    )
    (out / ".gitignore").write_text(f"{CORPUS}/cache/\n", encoding="utf-8")


def pick_active(tasks: list[Doc]) -> Doc:
    """The newest task created before STATUS was last verified; it is made OPEN."""
    before = [d for d in tasks if d.meta[4] < f"Created-At: {stamp(LAST_VERIFIED)}"]
    active = before[-1] if before else tasks[0]
    active.meta[3] = "Task-Status: OPEN"
    return active


def plan(rng: Random, sources: int, lines: int) -> list[Doc]:
    """All documents with metadata, sections and line targets; deterministic for RNG."""
    n_tasks, n_reports, n_history = counts(sources)
    tasks = plan_tasks(rng, n_tasks)
    reports = plan_reports(rng, n_reports, tasks)
    history = plan_history(rng, n_history)
    active = pick_active(tasks)
    cited = rng.sample(reports, min(len(reports), 14))
    full, bare = cited[:8], cited[8:]
    active.extra["Scope"] = "\n".join(
        [f"- Baseline evidence: {cited[0].rel}", f"- Earlier run: {cited[-1].stem}"]
    )
    cited_rels = {d.rel for d in cited}
    add_chains(rng, reports, 6, cited_rels)
    add_chains(rng, tasks, 2, {active.rel})
    add_chains(rng, history, 2, set())
    docs = [*tasks, *reports, *history]
    budget = lines - max(1, lines // 100) - PROJECT_LINES - STATUS_LINES
    assign_targets(rng, docs, budget)
    return [project_doc(), status_doc(active, full, bare), *docs]


def count_non_blank(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.strip())


def generate(
    out: Path, sources: int, lines: int, seed: int, volatile: tuple[float, float] = VOLATILE
) -> dict[str, object]:
    """Write the corpus under OUT and return a summary read back from disk."""
    if sources < 5:
        raise SystemExit("--sources must be at least 5")
    rng = Random(seed)
    docs = plan(rng, sources, lines)
    refs = [d.stem for d in docs[2:] if d.kind != "history"]
    text = Text(rng, refs, volatile)
    write_static(out)
    for doc in docs:
        body = render(text, doc, subheadings=doc.kind != "state")
        if count_non_blank(body) != doc.target:
            raise AssertionError(f"{doc.rel}: {count_non_blank(body)} != {doc.target}")
        path = out / doc.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body.encode("utf-8"))
    return summarize(out, seed)


def summarize(out: Path, seed: int) -> dict[str, object]:
    """Count sources, non-blank lines and bytes of the four source folders on disk."""
    files = sorted(p for d in SOURCE_DIRS for p in (out / CORPUS / d).rglob("*.md"))
    non_blank = 0
    size = 0
    for path in files:
        data = path.read_bytes()
        size += len(data)
        non_blank += count_non_blank(data.decode("utf-8"))
    kinds = {
        name: sum(1 for p in files if out / CORPUS / name in p.parents) for name in SOURCE_DIRS
    }
    return {
        "out": str(out),
        "seed": seed,
        "sources": len(files),
        "non_blank_lines": non_blank,
        "bytes": size,
        **kinds,
    }


def prepare(out: Path, force: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not force:
            raise SystemExit(f"{out} is not empty (use --force to replace a generated corpus)")
        if (out / CORPUS).is_dir():
            shutil.rmtree(out / CORPUS)
        for name in ("AGENTS.md", ".gitignore"):
            (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    parser.add_argument("--sources", type=int, default=2048)
    parser.add_argument("--lines", type=int, default=50000, help="hard maximum of non-blank lines")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--force", action="store_true", help="replace an existing corpus")
    parser.add_argument(
        "--volatile",
        type=float,
        nargs=2,
        default=VOLATILE,
        metavar=("SHARE", "LABELLED"),
        help="share of sentences with a volatile claim and share of claims with a date label"
        f" (default {VOLATILE[0]:g} {VOLATILE[1]:g}; 0.6 0 makes ~11,000 doctor findings)",
    )
    args = parser.parse_args(argv)
    prepare(args.out, args.force)
    volatile = (args.volatile[0], args.volatile[1])
    summary = generate(args.out, args.sources, args.lines, args.seed, volatile)
    print(json.dumps(summary, ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
