r"""Readline's state in the session's bash (part of the rcfile, see bashinit.py).

The session's bash runs with ``--noediting``, but its readline still holds what ``bind`` and the
inputrc files say; swebash's editor (prompt-toolkit) reads that back and applies it
(interactive/bindings.py). So bash itself parses every ``bind`` form and every inputrc
(``$include``, ``$if term=/mode=/Bash``), exactly as it would for its own editor:

* Before the rc file, readline is initialised with no inputrc but the system's
  (``/etc/inputrc``) and its state is dumped to ``rl-base``: what swebash compares the user's
  state with. Only the differences are applied: the user's own inputrc and ``bind`` calls,
  never the system's key-sequence defaults (``"\e\e[C": forward-word`` would otherwise take
  Alt-→ from swebash's suggestions).
* The inputrc (``$INPUTRC``, else ``~/.inputrc``, else ``/etc/inputrc``, as readline looks) is
  read where bash reads it: at the first ``bind`` (which initialises readline in bash too), or
  after the rc file.
* ``bind`` is a function that calls the builtin (listings ``-p -P -s -S -X -v -V -l -q`` print
  bash's answer), drops bash's "line editing not enabled" warning (swebash's editor is the line
  editor) and flags the change in ``rl-changed``; after the rc file the state is dumped to
  ``rl-now``, later swebash asks for ``__sb_rl_dump`` when the flag is there.

``__sb_widget`` runs a ``bind -x`` command the way bash does, with READLINE_LINE, READLINE_POINT
and READLINE_MARK from swebash's editor; it is run with the real terminal (fzf draws on it) and
the new values come back through the helper fifo; keys typed after it are taken back by swebash
(status marker and handover, as after a command). ``__sb_int_trap`` runs the user's INT trap
when Ctrl-C is pressed at swebash's prompt, as bash does at its own.
"""

from __future__ import annotations

READLINE = r"""
# the user's inputrc, found as readline finds it: $INPUTRC, else ~/.inputrc, else /etc/inputrc
__sb_rl_inputrc() {
  : >| "$__sb_dir/rl-read"
  builtin local "f=${INPUTRC-}"
  if [[ -z $f ]]; then
    f=~/.inputrc
    [[ -r $f ]] || f=/etc/inputrc
  fi
  [[ -r $f ]] && bind -f "$f"
  builtin return 0
}
bind() {
  [[ -e $__sb_dir/rl-read ]] || __sb_rl_inputrc
  builtin local __sb_l __sb_s
  builtin bind "$@" 2>| "$__sb_dir/binderr"
  __sb_s=$?
  while IFS= builtin read -r __sb_l; do
    [[ $__sb_l == *': warning: line editing not enabled' ]] || builtin printf '%s\n' "$__sb_l" >&2
  done < "$__sb_dir/binderr"
  : >| "$__sb_dir/rl-changed"
  builtin return "$__sb_s"
}
# Readline's state for swebash: per keymap the function bindings (-p), macros (-s) and shell
# commands (-X), then the variables (-v)
__sb_rl_dump() {
  builtin local m
  for m in emacs vi-insert vi-command; do
    builtin printf '#sb %s p\n' "$m"; builtin bind -m "$m" -p
    builtin printf '#sb %s s\n' "$m"; builtin bind -m "$m" -s
    builtin printf '#sb %s x\n' "$m"; builtin bind -m "$m" -X
  done
  builtin printf '#sb - v\n'; builtin bind -v
} 2>/dev/null
# A `bind -x` command: the READLINE_* values in, the command run with the terminal, the values out
__sb_widget() {
  builtin local -a __sb_w
  builtin mapfile -d '' -t __sb_w < "$__sb_dir/termin"
  : >| "$__sb_dir/termin"
  builtin local "READLINE_LINE=${__sb_w[1]-}" "READLINE_POINT=${__sb_w[2]-0}" \
    "READLINE_MARK=${__sb_w[3]-0}"
  __sb_setstatus "$__sb_status"
  builtin eval -- "${__sb_w[0]-}" >&63 2>&63
  builtin printf '%s\0%s\0%s\0' "$READLINE_LINE" "$READLINE_POINT" "$READLINE_MARK"
  # keys typed after the widget are swebash's: wait until it has taken them back
  __sb_emit
  __sb_handover
}
# readline's shell-expand-line (M-C-e, used by fzf's Alt-C): the line's expansions done, its
# quotes kept (run as a widget, so command substitutions have the terminal)
__sb_expand_line() {
  builtin local "q=${READLINE_LINE//\\/\\\\}"
  q=${q//\"/\\\"}
  builtin eval "READLINE_LINE=\"$q\"" && READLINE_POINT=${#READLINE_LINE}
}
# Ctrl-C at swebash's prompt: the user's INT trap runs, as bash runs it at its prompt
__sb_int_trap() {
  builtin local __sb_l=
  builtin local -a __sb_t
  builtin trap -p INT >| "$__sb_dir/inttrap"
  IFS= builtin read -r -d '' __sb_l < "$__sb_dir/inttrap"
  [[ $__sb_l == trap* ]] || builtin return 0
  builtin eval "__sb_t=(${__sb_l#trap })" 2>/dev/null || builtin return 0
  [[ -n ${__sb_t[1]-} ]] || builtin return 0
  __sb_setstatus 130
  builtin eval -- "${__sb_t[1]}" >&63 2>&63
}
if [[ ! -e $__sb_dir/rl-base ]]; then  # before the rc file: readline as the system has it
  INPUTRC=/dev/null builtin bind -v >/dev/null 2>&1
  [[ -r /etc/inputrc ]] && builtin bind -f /etc/inputrc >/dev/null 2>&1
  __sb_rl_dump >| "$__sb_dir/rl-base"
else  # after it: the inputrc (when no `bind` read it), and the state for swebash
  [[ -e $__sb_dir/rl-read ]] || __sb_rl_inputrc
  [[ -e $__sb_dir/rl-changed ]] && __sb_rl_dump >| "$__sb_dir/rl-now"
fi
"""
