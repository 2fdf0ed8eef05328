"""System prompts (chat, translate, explain, autocomplete) and parsers for strict-format replies."""

from __future__ import annotations

import platform
import re
import time
from collections.abc import Sequence

from swebash.errors import AiError

TOOL_LINES = {
    "filesystem": "filesystem: read files, list directories, check existence and metadata",
    "execute_command": "execute_command: run shell commands and see their output",
    "web_search": "web_search: search the web for information",
    "write_file": "write_file: create or overwrite a file (the user approves each write)",
    "edit_file": "edit_file: replace one exact piece of text in a file (user approves)",
    "search_text": "search_text: grep-like regular-expression search over files",
    "list_files": "list_files: list a directory",
    "task_complete": "task_complete: say the task is done, with a summary",
}


def environment_lines(cwd: str) -> list[str]:
    return [f"OS: {platform.system()} {platform.release()}", "Shell: bash (inside swebash)",
            f"Current directory: {cwd}", f"Date: {time.strftime('%Y-%m-%d %H:%M %Z')}"]


def chat_system_prompt(tools: Sequence[str], cwd: str, terminal_context: str) -> str:
    parts = ["You are a helpful AI assistant integrated into the swebash shell."]
    if tools:
        parts.append("You have access to the following tools:\n"
                     + "\n".join(f"- {TOOL_LINES.get(t, t)}" for t in tools))
        parts.append(
            "When you need information from the file system, execute commands, or search "
            "online, use the appropriate tool. Always explain what you're doing and why.\n\n"
            "For command execution:\n- Prefer safe, read-only commands when possible\n"
            "- Explain what the command does before executing it\n"
            "- If a command might be dangerous, describe the risks\n"
            "A tool result with \"error\": true tells you what went wrong (for example the "
            "user declined, or the call needs confirmation that is unavailable); adapt instead "
            "of repeating the same call.")
    else:
        parts.append("You have no tools in this session: answer from what you are told.")
    parts.append("Be concise but informative. Answer in Markdown.")
    parts.append("Environment:\n" + "\n".join(environment_lines(cwd)))
    if terminal_context:
        parts.append("The user's recent terminal activity (most recent last):\n"
                     + terminal_context)
    return "\n\n".join(parts)


def translate_system_prompt(cwd: str) -> str:
    return ("You turn a request into a bash command for the user's terminal: one command, or "
            "a short script (a loop, a pipeline over several lines) when the task needs one.\n"
            "Reply in exactly this form and nothing else:\n"
            "COMMAND:\n```bash\n<the whole command, on as many lines as it needs>\n```\n"
            "EXPLANATION: <one short sentence>\n\n" + "\n".join(environment_lines(cwd)))


def explain_system_prompt() -> str:
    return ("You explain shell commands to a terminal user: what the command does, each "
            "important part and flag, and any risk. Be brief; use Markdown.")


def autocomplete_system_prompt(cwd: str, limit: int) -> str:
    return (f"You complete partially typed bash command lines. Reply with up to {limit} "
            "complete command lines, one per line, each starting with exactly the text typed "
            "so far. No prose, no numbering, no code fences.\n"
            + "\n".join(environment_lines(cwd)))


FENCE = re.compile(r"```[a-zA-Z0-9_+-]*[ \t]*\n(.*?)```", re.S)
LABEL = re.compile(r"^\W*(COMMAND|EXPLANATION)\W*:\**[ \t]*(.*)$", re.I)


def clean_command(line: str) -> str:
    line = line.strip().strip("`").strip()
    if line.startswith("$ "):
        line = line[2:]
    return line.strip()


def _clean_block(text: str) -> str:
    """A proposal of one or more lines: whole, with only the blank edges and a lone line's
    backticks or ``$ `` prompt taken off (a script's own indentation stays)."""
    lines = text.strip("\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if len(lines) == 1:
        return clean_command(lines[0])
    if all(line.startswith("$ ") or not line.strip() for line in lines):
        lines = [line[2:] for line in lines]
    return "\n".join(line.rstrip() for line in lines)


def _prose(lines: list[str]) -> str:
    """Explanation lines: labels dropped, blank runs closed up."""
    out: list[str] = []
    for line in lines:
        match = LABEL.match(line)
        text = (match.group(2) if match else line).strip()
        if text:
            out.append(" ".join(text.split()))
    return "\n".join(out)


def parse_translation(text: str) -> tuple[str, str]:
    """(command, explanation) from the reply, whatever form the model chose; the command is
    taken WHOLE — a fenced block, or a ``COMMAND:`` value running over several lines up to
    ``EXPLANATION:`` — never just its first line. The explanation is the text around it."""
    fenced = FENCE.search(text)
    if fenced:
        command = _clean_block(fenced.group(1))
        outside = (text[: fenced.start()] + "\n" + text[fenced.end():]).split("\n")
        explanation = _prose(outside)
    else:
        lines = text.split("\n")
        start = next((i for i, line in enumerate(lines) if (m := LABEL.match(line))
                      and m.group(1).upper() == "COMMAND"), None)
        if start is None:  # no form at all: the reply is the command
            command, explanation = _clean_block(text), ""
        else:
            end = next((i for i in range(start + 1, len(lines)) if (m := LABEL.match(lines[i]))
                        and m.group(1).upper() == "EXPLANATION"), len(lines))
            first = LABEL.match(lines[start])
            body = ([first.group(2)] if first and first.group(2).strip() else []) + \
                lines[start + 1:end]
            command = _clean_block("\n".join(body))
            explanation = _prose(lines[:start] + lines[end:])
    if not command.strip():
        raise AiError("the model did not return a command; try rephrasing the request")
    return command, explanation


def parse_completions(text: str, typed: str, limit: int) -> tuple[str, ...]:
    body = FENCE.sub(lambda m: m.group(1), text)
    found: list[str] = []
    for raw in body.splitlines():
        line = clean_command(re.sub(r"^\s*(\d+[.)]|[-*])\s+", "", raw))
        if line and line.startswith(typed) and line != typed and line not in found:
            found.append(line)
    return tuple(found[:limit])
