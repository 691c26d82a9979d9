"""The lazily loaded command groups: every entry names a command of that name."""

from __future__ import annotations

import json
import subprocess
import sys

import click

from project_corpus.adapters.cli.app import LazyGroup
from project_corpus.adapters.cli.app import cli


def groups() -> list[LazyGroup]:
    ctx = click.Context(cli)
    context = cli.get_command(ctx, "context")
    assert isinstance(context, LazyGroup)
    return [cli, context]


def test_every_lazy_entry_is_the_command_of_its_name() -> None:
    for group in groups():
        assert isinstance(group, LazyGroup)
        ctx = click.Context(group)
        for name in sorted(group.lazy):
            command = group.get_command(ctx, name)
            assert command is not None, name
            assert command.name == name


def test_an_unknown_name_lists_every_command_for_suggestions() -> None:
    for group in groups():
        ctx = click.Context(group)
        assert group.get_command(ctx, "no-such-command") is None
        assert set(group.lazy) <= set(group.commands)


def test_a_misspelt_command_in_a_fresh_process_gets_its_suggestion() -> None:
    """Nothing is loaded yet in a new process: the suggestions still see every command."""
    for argv, expected in (
        (["context", "dotor", "."], "No such command 'dotor'. Did you mean 'doctor'?"),
        (["contxt"], "No such command 'contxt'. Did you mean 'context'?"),
        (["explian"], "No such command 'explian'. Did you mean 'explain'?"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "project_corpus", *argv], capture_output=True, text=True
        )
        assert done.returncode == 2
        assert json.loads(done.stderr)["detail"] == expected
