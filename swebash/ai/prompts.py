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
    return ("You turn a request into ONE bash command for the user's terminal.\n"
            "Reply with exactly two lines and nothing else:\n"
            "COMMAND: <the command, on one line>\n"
            "EXPLANATION: <one short sentence>\n\n" + "\n".join(environment_lines(cwd)))


def explain_system_prompt() -> str:
    return ("You explain shell commands to a terminal user: what the command does, each "
            "important part and flag, and any risk. Be brief; use Markdown.")


def autocomplete_system_prompt(cwd: str, limit: int) -> str:
    return (f"You complete partially typed bash command lines. Reply with up to {limit} "
            "complete command lines, one per line, each starting with exactly the text typed "
            "so far. No prose, no numbering, no code fences.\n"
            + "\n".join(environment_lines(cwd)))


FENCE = re.compile(r"```[a-zA-Z0-9_-]*\n(.*?)```", re.S)


def clean_command(line: str) -> str:
    line = line.strip().strip("`").strip()
    if line.startswith("$ "):
        line = line[2:]
    return line.strip()


def parse_translation(text: str) -> tuple[str, str]:
    """(command, explanation) from a reply that may ignore the requested format."""
    command = explanation = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().strip("*").upper() == "COMMAND" and not command:
            command = clean_command(value.strip().lstrip("*"))
        elif key.strip().strip("*").upper() == "EXPLANATION" and not explanation:
            explanation = value.strip().lstrip("*").strip()
    if not command:
        fenced = FENCE.search(text)
        if fenced:
            lines = [x for x in fenced.group(1).splitlines() if x.strip()]
            command = clean_command(lines[0]) if lines else ""
    if not command:
        lines = [x for x in text.splitlines() if x.strip()]
        command = clean_command(lines[0]) if lines else ""
    if not command or "\n" in command:
        raise AiError("the model did not return a command; try rephrasing the request")
    return command, " ".join(explanation.split())


def parse_completions(text: str, typed: str, limit: int) -> tuple[str, ...]:
    body = FENCE.sub(lambda m: m.group(1), text)
    found: list[str] = []
    for raw in body.splitlines():
        line = clean_command(re.sub(r"^\s*(\d+[.)]|[-*])\s+", "", raw))
        if line and line.startswith(typed) and line != typed and line not in found:
            found.append(line)
    return tuple(found[:limit])
