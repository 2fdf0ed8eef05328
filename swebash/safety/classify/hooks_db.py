"""Hooks of database clients: the queries they are given are read by ``sql.py`` (SQL and
client meta-commands); redis, mongo and other clients by their command words."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import sql
from swebash.safety.classify.checks import read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed


def queries(f: Findings, name: str, texts: list[tuple[str, bool]]) -> None:
    for text, dynamic in texts:
        if dynamic:
            f.ask(f"{name}: runs a query built at run time", True)
            continue
        for path in sql.paths(text):
            read_path(f, path)
        found = sql.problem(text)
        if found:
            f.ask(f"{name}: {found[0]}", found[1])


def sqlite(f: Findings, p: Parsed, depth: int) -> None:
    """``sqlite3 DB [SQL…]``: without SQL it reads statements from its input."""
    commands = [(v, False) for v in p.values("-cmd", "-c", "-s")]
    statements = [(a.text, a.dynamic) for a in p.operands[1:]]
    if not statements and not p.values("-c", "-s"):
        f.ask(f"{p.name}: runs SQL from its input")
    queries(f, p.name, commands + statements)


def psql(f: Findings, p: Parsed, depth: int) -> None:
    commands = [(u.value or "", u.dynamic) for u in p.options
                if u.opt.name in ("-c", "--command")]
    if not commands and not p.has("-l", "--list"):
        f.ask("psql: runs SQL from its input (or an interactive session)")
    queries(f, "psql", commands)


LOCAL = ("localhost", "127.0.0.1", "::1", "")


def mysql(f: Findings, p: Parsed, depth: int) -> None:
    """The client sends the password in ~/.my.cnf to any host: a host named here asks."""
    if any(h not in LOCAL for h in p.values("-h", "--host")):
        f.ask(f"{p.name}: connects to a host named here with your stored password")
    commands = [(u.value or "", u.dynamic) for u in p.options
                if u.opt.name in ("-e", "--execute", "--init-command")]
    if not any(u.opt.name in ("-e", "--execute") for u in p.options):
        f.ask(f"{p.name}: runs SQL from its input (or an interactive session)")
    queries(f, p.name, commands)


REDIS_READ = frozenset({
    "get", "mget", "strlen", "exists", "type", "ttl", "pttl", "keys", "scan", "sscan",
    "hscan", "zscan", "hget", "hmget", "hgetall", "hkeys", "hvals", "hlen", "hexists",
    "hstrlen", "lrange", "llen", "lindex", "lpos", "smembers", "scard", "sismember",
    "smismember", "srandmember", "sinter", "sunion", "sdiff", "zrange", "zrevrange",
    "zrangebyscore", "zrevrangebyscore", "zrangebylex", "zcard", "zscore", "zmscore",
    "zrank", "zrevrank", "zcount", "zlexcount", "info", "ping", "echo", "dbsize", "time",
    "lastsave", "memory", "object", "xrange", "xrevrange", "xlen", "xinfo", "xread",
    "getrange", "bitcount", "bitpos", "getbit", "pfcount", "slowlog", "role", "command",
    "cluster", "subscribe", "psubscribe", "pubsub", "geopos", "geodist", "geohash",
    "georadius_ro", "geosearch", "randomkey", "touch", "lolwut", "hello", "readonly",
    "json.get", "json.type", "ft.search", "ft.info", "ts.range", "ts.get", "ts.info"})
REDIS_DESTROY = frozenset({"del", "unlink", "flushall", "flushdb", "shutdown", "config",
                           "module", "slaveof", "replicaof", "migrate", "restore", "swapdb",
                           "rename", "renamenx", "eval", "evalsha", "evalsha_ro", "eval_ro",
                           "fcall", "function", "script", "debug", "acl", "client",
                           "monitor", "sync", "psync", "failover", "bgrewriteaof", "save",
                           "bgsave", "expire", "pexpire", "expireat", "getdel", "getex"})


def redis(f: Findings, p: Parsed, depth: int) -> None:
    words = [a for a in p.operands]
    if p.has("--scan", "--bigkeys", "--memkeys", "--hotkeys", "--keystats", "--stat",
             "--latency", "--latency-history", "--latency-dist") and not words:
        return
    if not words:
        f.ask(f"{p.name}: runs commands from its input (or an interactive session)")
        return
    if any(a.dynamic for a in words):
        f.ask(f"{p.name}: runs a command built at run time", True)
        return
    command = words[0].text.lower()
    if command in REDIS_READ:
        return
    if command == "config" and words[1:2] and words[1].text.lower() == "get" and not any(
            "pass" in a.text.lower() for a in words[2:]):
        return
    if command == "client" and words[1:2] and words[1].text.lower() in ("list", "info",
                                                                        "getname", "id"):
        return
    f.ask(f"{p.name} {command[:12]}: changes or deletes data", command in REDIS_DESTROY)


MONGO_READ = frozenset({"find", "findone", "count", "countdocuments", "estimateddocumentcount",
                        "distinct", "aggregate", "getcollectionnames", "getcollectioninfos",
                        "stats", "getindexes", "version", "serverstatus", "listcollections",
                        "getname", "getsiblingdb", "limit", "skip", "sort", "toarray",
                        "pretty", "itcount", "size", "hasnext", "next", "foreach", "map",
                        "explain", "hostinfo", "ismaster", "hello", "getmongo", "getdbnames",
                        "collection", "getcollection", "db", "printjson", "print", "json",
                        "stringify", "project", "batchsize", "comment", "hint", "max", "min",
                        "readpref", "returnkey", "showrecordid", "dbstats", "currentop",
                        "getusers", "getroles", "tojson", "keys", "length", "rs", "status",
                        "conf", "printreplicationinfo", "getlog", "ping", "buildinfo"})


def mongo(f: Findings, p: Parsed, depth: int) -> None:
    code = p.values("--eval")
    if not code:
        f.ask(f"{p.name}: runs a script or an interactive session")
        return
    for text in code:
        called = {m.lower() for m in re.findall(r"\.?\b([A-Za-z_]\w*)\s*\(", text)}
        if re.search(r"\$(out|merge)\b|\b(process|require|load|child_process|fs|eval|"
                     r"Function|runProgram|_runMongoProgram|shutdownServer)\b", text):
            f.ask(f"{p.name}: the script runs programs, writes or shuts down", True)
        elif called - MONGO_READ:
            destroys = called & {"drop", "dropdatabase", "deletemany", "deleteone", "remove",
                                 "findoneanddelete", "dropindex", "dropindexes"}
            f.ask(f"{p.name}: the script changes or deletes data", bool(destroys))


def clickhouse(f: Findings, p: Parsed, depth: int) -> None:
    texts = [(u.value or "", u.dynamic) for u in p.options if u.opt.name in ("-q", "--query")]
    if not texts:
        f.ask(f"{p.name}: runs queries from its input (or an interactive session)")
    queries(f, p.name, texts)


def cqlsh(f: Findings, p: Parsed, depth: int) -> None:
    texts = [(u.value or "", u.dynamic) for u in p.options
             if u.opt.name in ("-e", "--execute")]
    if not texts:
        f.ask("cqlsh: runs queries from its input (or an interactive session)")
    queries(f, "cqlsh", texts)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "sqlite": sqlite, "psql": psql, "mysql": mysql, "redis": redis, "mongo": mongo,
    "clickhouse": clickhouse, "cqlsh": cqlsh,
}
