"""Hooks of the tools that configure the machine's network and services: interfaces,
routes, the resolver, NetworkManager, wireless, traffic control, and a notebook server's
address. Their grammars are ``admin=True``: whatever these hooks find beyond reading turns
dangerous there (``dispatch.judge_program``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify.hooks_net import net_dynamic
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed


def ifconfig(f: Findings, p: Parsed, depth: int) -> None:
    if len(p.operands) > 1:
        words = {a.text for a in p.operands[1:]}
        f.ask("ifconfig: changes an interface", bool(words & {"down", "del"}))


def route(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        verb = p.operands[0].text
        f.ask(f"route {verb[:10]}: changes the routing table", verb in ("del", "flush"))


NMCLI_READS = {"general g": "status s hostname h permissions p logging l", "device d":
               "status s show sh list wifi lldp", "connection c con": "show s",
               "radio r": "all wifi wwan", "networking n": "connectivity c", "monitor m": ""}


RESOLVER_SETTINGS = frozenset({"dns", "domain", "default-route", "llmnr", "mdns", "dnssec",
                               "dnsovertls", "nta", "log-level"})


def resolver(f: Findings, p: Parsed, depth: int) -> None:
    """``resolvectl dns`` shows; ``resolvectl dns eth0 1.1.1.1`` sets (a link and a value)."""
    net_dynamic(f, p, depth)
    verb = p.verbs[-1] if p.verbs else ""
    if verb in RESOLVER_SETTINGS and len(p.operands) > (0 if verb == "log-level" else 1):
        f.ask(f"resolvectl {verb}: changes the resolver's settings")


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", "ip6-localhost"})


def jupyter(f: Findings, p: Parsed, depth: int) -> None:
    """``jupyter kernelspec list`` reads; servers run notebook code, and a server listening
    beyond loopback (``--ip 0.0.0.0``) hands that to the network."""
    words = p.argv[1:]
    if words[:2] in (["kernelspec", "list"], ["labextension", "list"],
                     ["serverextension", "list"], ["server", "list"], ["notebook", "list"]):
        return
    for k, word in enumerate(words):
        head, eq, value = word.partition("=")
        if re.fullmatch(r"--(\w+App\.)?ip", head):
            value = value if eq else (words[k + 1] if k + 1 < len(words) else "")
            if value.strip("'\"") not in LOOPBACK_NAMES:
                f.ask(f"{p.name}: serves notebooks (code runs) beyond this machine", True)
    f.ask(f"{p.name}: runs notebook code or a notebook server")


def nmcli(f: Findings, p: Parsed, depth: int) -> None:
    words = [a.text for a in p.operands]
    if not words:
        return
    group = next((k for k in NMCLI_READS if any(n.startswith(words[0]) for n in k.split())),
                 None)
    verbs = NMCLI_READS.get(group or "", "").split()
    if group is None or (len(words) > 1 and not any(v.startswith(words[1]) for v in verbs)) or (
            group.startswith(("radio", "general")) and len(words) > 2) or (
            group.startswith("device") and words[1:3] == ["wifi", "show-password"]) or (
            group.startswith("device") and words[1:2] == ["wifi"] and
            words[2:3] not in ([], ["list"])):
        f.ask("nmcli: changes the network configuration or shows secrets",
              any(w in ("delete", "down", "off", "show-password") for w in words))


IW_WRITES = frozenset({"set", "connect", "disconnect", "del", "add", "interface", "reg",
                       "switch", "ibss", "mesh", "ocb", "offchannel", "wowlan", "coalesce",
                       "cqm", "vendor", "ap", "start", "stop", "join", "leave"})


def iw(f: Findings, p: Parsed, depth: int) -> None:
    if IW_WRITES & {a.text for a in p.operands}:
        f.ask(f"{p.name}: changes the wireless configuration")


def ethtool_args(f: Findings, p: Parsed, depth: int) -> None:
    if len(p.operands) > 1:
        f.ask("ethtool: changes an interface's settings")


SHOW_WORDS = frozenset({"show", "list", "ls", "sh", "s", "l", "dev", "link", "fdb", "mdb",
                        "vlan", "qdisc", "class", "filter", "monitor", "stats"})


def show_only(f: Findings, p: Parsed, depth: int) -> None:
    if any(a.text in ("add", "del", "delete", "change", "replace", "flush", "set", "link set")
           for a in p.operands):
        f.ask(f"{p.name}: changes the network configuration",
              any(a.text in ("del", "delete", "flush") for a in p.operands) or
              any("loss" in a.text for a in p.operands))


def ip_write(f: Findings, p: Parsed, depth: int) -> None:
    if {a.text for a in p.operands} & {"down", "nomaster", "flush", "del", "delete"}:
        f.ask(f"ip {' '.join(p.verbs)[:20]}: takes down or removes network configuration",
              True)


def swapon(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        f.ask("swapon: enables swap on a device or file")


def visudo(f: Findings, p: Parsed, depth: int) -> None:
    if not p.has("-c", "--check"):
        f.ask("visudo: edits who may run what as root")


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "ifconfig": ifconfig, "route": route, "resolver": resolver, "jupyter": jupyter,
    "nmcli": nmcli, "iw": iw, "ethtool_args": ethtool_args, "show_only": show_only,
    "ip_write": ip_write, "swapon": swapon, "visudo": visudo,
}
