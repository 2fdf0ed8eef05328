"""SQL and client meta-commands, read the way a database client would run them.

A statement passes only when it starts with a reading keyword (``SELECT``, ``SHOW``,
``EXPLAIN`` without ``ANALYZE``, ``DESCRIBE``, ``WITH``, ``VALUES``, ``TABLE``, a ``PRAGMA``
that assigns nothing) and names nothing that writes, runs programs, reads server files or
reaches other servers anywhere in it (a ``WITH`` can hide a ``DELETE``; ``SELECT … INTO
OUTFILE`` writes; ``pg_read_file``, ``load_extension``, ``COPY … TO PROGRAM``, ``dblink`` do
more than reading). psql backslash commands and sqlite dot commands are admitted from a list
of the ones that only describe the database. String literals that look like paths go through
the path guard (``read_csv('~/.ssh/id_rsa')``).
"""

from __future__ import annotations

import functools
import re

READS = re.compile(r"^(select|show|explain|describe|desc|with|values|table|pragma|use|"
                   r"help|\?)\b", re.I)
DESTROYS = re.compile(r"\b(drop|delete|truncate|flushall|flushdb|shutdown|update|alter|"
                      r"grant|revoke|"
                      r"pg_terminate_backend|pg_cancel_backend|kill|purge|dropdatabase|"
                      r"deletemany|deleteone|remove|findoneanddelete)\b", re.I)
WRITES = re.compile(r"\b(insert|update|replace|merge|alter|create|grant|revoke|rename|"
                    r"call|do|exec|execute|prepare|set|reset|vacuum|analyze|reindex|"
                    r"cluster|refresh|comment|lock|unlock|attach|detach|load|install|"
                    r"import|export|copy|into|outfile|dumpfile|nextval|setval|"
                    r"set_config|pg_reload_conf|pg_sleep|sleep|benchmark|"
                    r"for\s+(update|share|no\s+key\s+update|key\s+share))\b", re.I)
RUNS = re.compile(r"\b(load_extension|readfile|writefile|edit|fts3_tokenizer|"
                  r"pg_read_file|pg_read_binary_file|pg_ls_dir|pg_stat_file|lo_import|"
                  r"lo_export|lo_from_bytea|dblink\w*|load_file|sys_exec|sys_eval|"
                  r"xp_cmdshell|read_text|read_blob|http_get|http_post|httpfs|outfile|"
                  r"dumpfile)\b|\bcopy\b[^;]*\bto\s+'|"
                  r"^\s*(system|shell|pager|tee|source|nopager|notee)\b", re.I)
FILE_READERS = re.compile(r"\b(read_csv\w*|read_json\w*|read_parquet|read_ndjson\w*|"
                          r"glob|sniff_csv|parquet_scan|csv_scan)\s*\(\s*'([^']*)'", re.I)
PATH_LITERAL = re.compile(r"'((?:~|\.{0,2}/)[^']*)'")
PSQL_READ = re.compile(r"^\\(d[a-zA-Z]*\+?S?|l\+?|list|dn\+?|du\+?|dg|dp|z|x|timing|"
                       r"conninfo|encoding|echo|a|t|H|pset|C|f|q|\?|h|copyright|"
                       r"errverbose|sf|sv|ev|lo_list|dconfig|drds|dX|dy|des|dew|det|deu|"
                       r"dL|dO|dP|dRp|dRs|dT|dx|l)\b")
SQLITE_READ = re.compile(r"^\.(tables|table|schema|indexes|indices|headers|header|mode|"
                         r"databases|dbinfo|show|help|width|nullvalue|separator|timer|eqp|"
                         r"stats|fullschema|lint|version|quit|exit|print|echo|changes|"
                         r"explain|parameter\s+list|dbconfig|prompt|limit|vfsinfo|"
                         r"vfsname|bail|binary|expert|selftest|connection|filectrl|"
                         r"crnl|timeout|sha3sum|check)\b")


def statements(text: str) -> list[str]:
    """Split on ``;`` outside quotes; comments dropped."""
    text = re.sub(r"--[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    out, current, quote = [], [], ""
    for ch in text:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"`":
            quote = ch
        if ch == ";":
            out.append("".join(current))
            current = []
            continue
        current.append(ch)
    out.append("".join(current))
    return [s.strip() for s in out if s.strip()]


def without_strings(statement: str) -> str:
    return re.sub(r"'(?:[^']|'')*'|\"[^\"]*\"", "''", statement)


@functools.lru_cache(maxsize=256)
def problem(text: str) -> tuple[str, bool] | None:
    """Why SQL (or client meta-commands) is not read-only, and whether it is dangerous."""
    for statement in statements(text):
        for line in statement.splitlines() if statement.lstrip().startswith(("\\", ".")) \
                else [statement]:
            found = one(line.strip())
            if found:
                return found
    return None


def one(statement: str) -> tuple[str, bool] | None:
    if not statement:
        return None
    if statement.startswith("\\"):
        if statement.startswith(("\\!", "\\o", "\\w", "\\g", "\\copy", "\\i", "\\ir", "\\e",
                                 "\\s ", "\\setenv", "\\lo_import", "\\lo_export")):
            return "a client command runs programs or writes files", statement.startswith(
                ("\\!", "\\o", "\\w", "\\g", "\\copy"))
        if PSQL_READ.match(statement):
            return None
        return "a client command that is not known to only read", False
    if statement.startswith("."):
        if statement.startswith((".shell", ".system", ".output", ".once", ".load",
                                 ".excel", ".save", ".backup", ".log")):
            return "a client command runs programs or writes files", True
        if SQLITE_READ.match(statement):
            return None
        return "a client command that is not known to only read", False
    bare = without_strings(statement)
    if RUNS.search(bare) or re.search(r"\bto\s+program\b", statement, re.I):
        return "the query runs programs, reads server files or reaches other servers", True
    if DESTROYS.search(bare):
        return "the query destroys data", True
    if not READS.match(bare) or WRITES.search(bare) or re.search(
            r"^\s*explain\s+(\(.*analy[sz]e|analy[sz]e)", bare, re.I) or (
            re.match(r"^\s*pragma\b", bare, re.I) and "=" in bare):
        return "the query is not known to only read", False
    return None


def paths(text: str) -> list[str]:
    """Files a query names (``read_csv('x')``, ``'/etc/passwd'``): judged as reads."""
    found = [m.group(2) for m in FILE_READERS.finditer(text)]
    found += [m.group(1) for m in PATH_LITERAL.finditer(text)]
    return [p for p in found if p]
