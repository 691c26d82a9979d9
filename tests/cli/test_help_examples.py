"""Every `--help` ends with examples and a link to the command's docs page (SPEC §10, #35
item 11), and every example is a command line the CLI parses."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from project_corpus.adapters.cli.app import cli as root_group
from project_corpus.adapters.cli.app import main
from project_corpus.adapters.cli.examples import EXAMPLES
from project_corpus.core.about import DOCS_URL
from tests.conftest import Run

DOCS = Path(__file__).resolve().parents[2] / "docs"


def every_command(
    group: click.Group = root_group, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(group)
    yield " ".join(path), group
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from every_command(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


COMMANDS = dict(every_command())


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_every_command_and_only_those_have_examples() -> None:
    assert set(EXAMPLES) == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS), ids=lambda n: n or "project-corpus")
def test_every_help_ends_with_examples_and_a_docs_link(name: str) -> None:
    page, examples = EXAMPLES[name]
    help_text = COMMANDS[name].get_help(click.Context(COMMANDS[name], info_name=name))
    tail = help_text[help_text.index("Examples:") :]
    assert tail.rstrip().endswith(f"Docs: {DOCS_URL}/{page}")
    for line, what in examples:
        assert f"    {line}\n        {what}" in tail
    file, _, fragment = page.partition("#")
    assert (DOCS / file).is_file()
    if fragment:
        headings = re.findall(r"^#+ (.+)$", (DOCS / file).read_text(encoding="utf-8"), re.M)
        assert fragment in {anchor(h) for h in headings}
    assert main([*name.split(), "--help"]) == 0


@pytest.mark.parametrize(
    "line",
    sorted({line for _, examples in EXAMPLES.values() for line, _ in examples}),
)
def test_every_example_parses(line: str) -> None:
    """Each example's arguments are accepted by click (no usage error), without running."""
    args = shlex.split(line.partition(">")[0])[1:]
    command: click.Command = root_group
    while isinstance(command, click.Group) and args and not args[0].startswith("-"):
        found = command.get_command(click.Context(command), args[0])
        assert found is not None, line
        command, args = found, args[1:]
    command.make_context(command.name or "project-corpus", args)  # a usage error raises


def test_help_is_printed_through_main(cli: Callable[..., Run]) -> None:
    run = cli("context", "doctor", "--help")
    assert run.code == 0
    assert "Examples:\n    project-corpus context doctor\n" in run.out
