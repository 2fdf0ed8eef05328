"""The init file of the session's bash (sourced by its first PROMPT_COMMAND; it reads the user's
startup files in bash's order, see startup.py).

How a command travels: swebash writes the user's text to a private file (0600 in a 0700 dir,
unlinked as soon as bash has read it) and sends bash one short line,
``__sb_pre SEQ;builtin eval "$__sb_cmd";__sb_post SEQ``. ``__sb_pre`` reads the file, adds the
line to bash's history the way bash would (HISTCONTROL, HISTIGNORE), prints the start marker,
and wraps the text between two hidden helpers: the first restores ``$?`` and ``$_`` of the
previous command and re-enables xtrace/verbose if the user had them on; the last records the
status and ``$_`` and turns them off again, so ``set -x`` traces the user's commands and never
swebash's plumbing. The eval runs at top level (not inside a function), so ``declare``, ``$1``,
``return`` and aliases behave as typed at a bash prompt, and there is no 4 KB line limit.

Two markers end a command (see markers.py). ``__sb_post`` runs the user's PROMPT_COMMAND and
expands their PS1 (``__sb_state``, for userprompt.py), prints the status marker (status, cwd)
and then waits on a fifo until swebash has taken back the keys typed ahead. PROMPT_COMMAND is
only ``__sb_prompt``, which sets PS1 to the ready marker; bash prints PS1 after its job
notices ("[1]+ Done …"), so everything bash shows before a prompt reaches swebash before it
draws its own. If Ctrl-C aborts the line, ``__sb_prompt`` does ``__sb_post``'s work with 130
(or, when the tty discarded the line, the previous sequence number: "interrupted").

The plumbing survives what a user's rc file does: every builtin is called through ``builtin``
(functions named ``printf``, ``local`` or ``read`` do not matter; the builtins swebash needs are
re-enabled), functions are defined again after the rc file with alias expansion off, nothing
breaks under ``set -u``/``set -e``/``FUNCNEST``, and user DEBUG/ERR/RETURN traps are wrapped by
a ``trap`` function so they never fire for swebash's own commands. Hidden helpers (completion,
environment dump, history dump) write to a fifo, so nothing they produce touches the disk.
Bash never writes a history file: swebash owns the persistent history (see
interactive/history.py) and loads it into bash, so ``history``, ``fc`` and ↑ see one list.
"""

from __future__ import annotations

import re
import shlex

from swebash.shell.bashcomplete import COMPLETE

STATE = r"""
__sb_nonce=@NONCE@
__sb_dir=@DIR@
__sb_status=0 __sb_last= __sb_xtrace=0 __sb_verbose=0 __sb_kept=0 __sb_seq=0
__sb_emitted=0 __sb_quiet=0 __sb_cmd= __sb_line= __sb_added=-1 __sb_bc_loaded=
__sb_prevhist= __sb_ready= __sb_userhist=1 __sb_fc=0
# The user's own prompt (swebash/shell/userprompt.py): PS1/PS2 and PROMPT_COMMAND as the rc file
# or a command left them. __sb_state runs the user's PROMPT_COMMAND as bash would before a
# prompt and hands swebash ${PS1@P}; bash's own PS1 is only ever the ready marker.
__sb_ps1= __sb_ps2= __sb_ps0= __sb_live=0 __sb_in_upc=0
declare -a __sb_upc=()
declare -A __sb_traps=()
unset HISTFILE
# swebash's markers go to their own descriptor on the pty, so `exec >file`, `exec 1>&-` or
# `exec > >(tee log)` (in the rc file or typed) leave the plumbing working
exec 63>&1
"""

# Function bodies use only `builtin …`, keywords and our own names, never a function or alias
# the user could define; they are parsed again after the rc file (which may have unset them).
FUNCS = r"""
__sb_emit() {
  builtin local LC_ALL=C
  builtin printf '\033]6973;%s;%s;%s;%s;%s\007' "$__sb_nonce" "$__sb_seq" "$__sb_status" \
    "${#PWD}" "$PWD" >&63
  __sb_emitted=1
}
__sb_handover() {
  builtin local ack
  while IFS= builtin read -r -t 5 ack <> "$__sb_dir/ack"; do
    [[ $ack == "$__sb_seq" ]] && builtin return 0
  done
  builtin return 0
}
# PROMPT_COMMAND is just this. Normally __sb_post has sent the status; if not, the line was cut
# short by Ctrl-C (or never ran: the tty discarded it, and the marker then carries the previous
# sequence number, which swebash takes as "interrupted"). PS1 becomes the ready marker, which
# bash prints after its job notices.
__sb_prompt() {
  builtin local "s=$?"
  [[ $__sb_in_upc == 1 ]] && builtin return "$s"  # "x;$PROMPT_COMMAND" kept by the user
  builtin local FUNCNEST=0
  if [[ $__sb_emitted != 1 ]]; then
    __sb_status=$s
    builtin set +o history
    (( __sb_quiet )) || __sb_state
    __sb_emit
    (( __sb_seq == 0 || __sb_quiet )) || __sb_handover
  fi
  __sb_quiet=0 __sb_emitted=0
  __sb_ready=$'\e]6973;'"$__sb_nonce;$__sb_seq;-2;0;"$'\a'
  if [[ ${PS1@a} == *r* || ! /proc/self/fd/2 -ef /proc/self/fd/63 ]]; then
    builtin printf '%s' "$__sb_ready" >&63
    [[ ${PS1@a} == *r* ]] || PS1=
  else
    PS1=$__sb_ready PS2= PS0=
  fi
  builtin return 0
}
__sb_setstatus() { builtin return "$1"; }
# Take over what a command did to PROMPT_COMMAND: an assignment that drops __sb_prompt replaces
# the user's commands, one that keeps it ("x;$PROMPT_COMMAND", +=(x)) adds to them.
__sb_adopt_pc() {
  [[ ${PROMPT_COMMAND@a} == *r* ]] && builtin return 0  # bash runs it itself
  builtin local e mentions=0
  builtin local -a fresh; fresh=()
  for e in "${PROMPT_COMMAND[@]}"; do
    [[ $e == *__sb_prompt* ]] && mentions=1
    [[ $e == __sb_prompt || -z $e ]] || fresh+=("$e")
  done
  if (( mentions )); then __sb_upc+=("${fresh[@]}"); else __sb_upc=("${fresh[@]}"); fi
  [[ ${PROMPT_COMMAND@a} == *r* ]] || PROMPT_COMMAND=(__sb_prompt)
  builtin return 0
}
# Before each swebash prompt: adopt PS1/PS2 a command set, run the user's PROMPT_COMMAND with $?
# of the command (at most once per prompt, as bash does), expand the prompts with ${…@P} and
# leave "$-, count of user prompt commands, PS1, PS2, PATH, names" for swebash.
__sb_state() {
  __sb_adopt_pc
  (( __sb_live )) && __sb_ps1=${PS1-} __sb_ps2=${PS2-} __sb_ps0=${PS0-}
  __sb_live=0
  if (( ${#__sb_upc[@]} )); then
    [[ ${PS1@a}${PS2@a} == *r* ]] || PS1=$__sb_ps1 PS2=$__sb_ps2 PS0=$__sb_ps0
    __sb_in_upc=1
    builtin local __sb_c
    for __sb_c in "${__sb_upc[@]}"; do
      [[ $- == *e* ]] || __sb_setstatus "$__sb_status"  # set -e would end the shell
      builtin eval "$__sb_c"
    done
    __sb_ps1=${PS1-} __sb_ps2=${PS2-} __sb_ps0=${PS0-} __sb_in_upc=0
    __sb_adopt_pc
  fi
  builtin local p1= p2=
  if [[ -n $__sb_ps1 ]]; then
    [[ $- == *e* ]] || __sb_setstatus "$__sb_status"; p1=${__sb_ps1@P}
    [[ $- == *e* ]] || __sb_setstatus "$__sb_status"; p2=${__sb_ps2@P}
  fi
  {
    builtin printf '%s\0%s\0%s\0%s\0%s\0' "$-" "${#__sb_upc[@]}" "$p1" "$p2" "${PATH-}"
    builtin compgen -A function -A alias
    builtin printf '\0%s\0' "$__sb_nonce"  # the end: the file is overwritten, not truncated
  } 1<> "$__sb_dir/prompt" 2>/dev/null  # (truncating costs ~1 ms on some filesystems)
  __sb_ready=$'\e]6973;'"$__sb_nonce;$__sb_seq;-2;0;"$'\a'
  [[ ${PS1@a} == *r* ]] || PS1=$__sb_ready PS2= PS0=
  builtin return 0
}
__sb_histok() {
  [[ $1 == *[![:space:]]* ]] || builtin return 1
  builtin local "c=:${HISTCONTROL-}:" p
  [[ $c == *:ignorespace:* || $c == *:ignoreboth:* ]] && [[ $1 == [[:space:]]* ]] \
    && builtin return 1
  [[ $c == *:ignoredups:* || $c == *:ignoreboth:* ]] && [[ $1 == "$__sb_prevhist" ]] \
    && builtin return 1
  if [[ -n ${HISTIGNORE-} ]]; then
    builtin local -a pats
    IFS=: builtin read -r -a pats <<< "$HISTIGNORE"
    for p in "${pats[@]}"; do
      [[ $p == '&' ]] && p=$__sb_prevhist
      [[ $1 == $p ]] && builtin return 1
    done
  fi
  builtin return 0
}
__sb_pre() {
  __sb_seq=$1 __sb_emitted=0 __sb_kept=0 __sb_cmd= __sb_added=-1
  [[ -n ${2-} ]] && __sb_status=$2  # Ctrl-C at swebash's prompt: $? is 130, as in bash
  # the command sees the user's prompt (venv activate)
  [[ ${PS1@a}${PS2@a} == *r* ]] || PS1=$__sb_ps1 PS2=$__sb_ps2 PS0=$__sb_ps0
  __sb_live=1
  IFS= builtin read -r -d '' __sb_cmd < "$__sb_dir/cmd" || :  # (set -e: EOF is not an error)
  __sb_line=$__sb_cmd
  builtin local FUNCNEST=0
  # `fc` replaces its own history entry with the command it runs, as at a bash prompt
  [[ $__sb_cmd == *'+o history'* ]] && __sb_userhist=0
  __sb_fc=0
  # `fc` replaces its own history entry with the command it runs, as at a bash prompt: bash's
  # history recording is on while it runs (and the line after it is taken out again)
  if (( __sb_userhist )) && [[ ${__sb_cmd#"${__sb_cmd%%[![:space:]]*}"} == fc* ]]; then
    __sb_fc=1
  elif (( __sb_userhist )) && __sb_histok "$__sb_cmd"; then
    builtin history -s -- "$__sb_cmd"
    __sb_prevhist=$__sb_cmd __sb_added=-3
  fi
  __sb_cmd=$'{ __sb_restore "$__sb_last"; } 2>/dev/null\n'$__sb_cmd
  __sb_cmd+=$'\n{ __sb_keep "$_"; } 2>/dev/null'
  builtin printf '\033]6973;%s;%s;%s;0;\007' "$__sb_nonce" "$__sb_seq" "$__sb_added" >&63
  # PS0 after the line is read, before it runs, on stderr (as bash prints it; not for a line
  # that is only a comment)
  if [[ -n $__sb_ps0 ]] && [[ $__sb_line == *$'\n'* || ! $__sb_line =~ ^[[:space:]]*(#.*)?$ ]]
  then builtin printf '%s' "${__sb_ps0@P}" >&2; fi
  builtin return 0
}
__sb_restore() {
  (( __sb_fc )) && builtin set -o history
  [[ $__sb_verbose == 1 ]] && { builtin set -v; builtin printf '%s\n' "$__sb_line" >&2; }
  [[ $__sb_xtrace == 1 ]] && builtin set -x
  # set -e would end the shell on a restored non-zero status
  [[ $- == *e* ]] && builtin return 0
  builtin return "$__sb_status"
}
__sb_keep() {
  __sb_status=$? __sb_last=$1 __sb_kept=1
  if [[ $- == *x* ]]; then __sb_xtrace=1; builtin set +x; else __sb_xtrace=0; fi
  if [[ $- == *v* ]]; then __sb_verbose=1; builtin set +v; else __sb_verbose=0; fi
  # bash never records the lines it reads (swebash's control lines): history is off but for fc
  if [[ -o history ]]; then
    __sb_userhist=1
    builtin set +o history
    (( __sb_fc )) && builtin history -d -1 2>/dev/null  # the line that called __sb_keep
  fi
  __sb_fc=0
}
__sb_post() {
  builtin local "s=$?"
  [[ $__sb_kept == 1 ]] || __sb_status=$s
  __sb_seq=$1
  builtin enable builtin eval read printf local history set shopt unset declare return \
    trap kill jobs exit compgen mapfile 2>/dev/null
  builtin local FUNCNEST=0
  __sb_editing
  __sb_state
  __sb_emit
  __sb_handover
  builtin return 0
}
# A helper's output goes to the fifo; the user's PROMPT_COMMAND does not run after it.
__sb_hidden() {
  __sb_seq=$1 __sb_quiet=1
  builtin shift
  builtin local "o=$-"
  builtin set +euxv
  builtin local FUNCNEST=0
  "$@" > "$__sb_dir/hidden" 2>/dev/null
  [[ $o == *u* ]] && builtin set -u
  [[ $o == *e* ]] && builtin set -e
  __sb_emitted=0
  if [[ ${PROMPT_COMMAND[0]-} != __sb_prompt ]]; then  # readonly: __sb_prompt never runs
    __sb_emit
    __sb_ready=$'\e]6973;'"$__sb_nonce;$__sb_seq;-2;0;"$'\a'
    builtin printf '%s' "$__sb_ready" >&63
  fi
  builtin return "$__sb_status"
}
__sb_env() { command env -0; }
__sb_histdump() {
  HISTTIMEFORMAT=%s builtin history -w "$__sb_dir/histdump"
}
__sb_histload() {
  builtin history -c
  builtin local -a entries
  builtin local e
  builtin mapfile -d '' -t entries < "$__sb_dir/histload"
  for e in "${entries[@]}"; do builtin history -s -- "$e"; done
  __sb_prevhist=${e-}
  builtin return 0
}
# `set -o vi|emacs` (from the rc file or a command) belong to swebash's line editor: bash
# would switch its own readline on and read swebash's control lines with it. Switch it off again
# before bash reads another line, and tell swebash which mode was asked for.
__sb_editing() {
  builtin local m=
  [[ :$SHELLOPTS: == *:emacs:* ]] && m=emacs
  [[ :$SHELLOPTS: == *:vi:* ]] && m=vi
  [[ -z $m ]] && builtin return 0
  builtin set +o "$m"
  builtin printf '\033]6973;%s;%s;-5;%s;%s\007' "$__sb_nonce" "$__sb_seq" "${#m}" "$m" >&63
  builtin return 0
}
# User DEBUG/ERR/RETURN traps run for the user's commands only, never for swebash's.
trap() {
  builtin local a s
  case ${1-} in
    -l) builtin trap "$@"; builtin return ;;
    -p|'') builtin shift; __sb_trap_print "$@"; builtin return ;;
    --) builtin shift ;;
  esac
  (( $# == 1 )) && builtin set -- - "$1"
  a=$1
  builtin shift
  builtin local -a rest; rest=()
  for s; do
    case ${s^^} in
      DEBUG|ERR|RETURN)
        if [[ $a == - ]]; then
          builtin unset "__sb_traps[${s^^}]"
          builtin trap - "$s"
        elif [[ -z $a ]]; then
          builtin unset "__sb_traps[${s^^}]"
          builtin trap '' "$s"
        else
          __sb_traps[${s^^}]=$a
          builtin trap "__sb_trap ${s^^}" "$s"
        fi ;;
      *) rest+=("$s") ;;
    esac
  done
  (( ${#rest[@]} == 0 )) || builtin trap -- "$a" "${rest[@]}"
}
__sb_trap() {
  [[ $BASH_COMMAND == *__sb_* || ${FUNCNAME[1]-} == __sb_* ]] && builtin return 0
  builtin eval "${__sb_traps[$1]-}"
}
# DEBUG/ERR/RETURN are not inherited by functions, so `trap -p` here would not show them:
# they come from what the `trap` function kept
__sb_trap_print() {
  builtin local line name
  builtin trap -p "$@" > "$__sb_dir/traps"
  while IFS= builtin read -r line; do
    case ${line##* } in DEBUG|ERR|RETURN) ;; *) builtin printf '%s\n' "$line" ;; esac
  done < "$__sb_dir/traps"
  : > "$__sb_dir/traps"
  for name in DEBUG ERR RETURN; do
    [[ -n ${__sb_traps[$name]+set} ]] || continue
    (( $# == 0 )) || [[ " ${*^^} " == *" $name "* ]] || continue
    builtin printf 'trap -- %s %s\n' "${__sb_traps[$name]@Q}" "$name"
  done
}
"""

AFTER_RC = r"""
{ [[ $- == *x* ]] && { __sb_xtrace=1; builtin set +x; }; } 2>/dev/null
builtin trap - DEBUG  # a user's DEBUG trap must not see the rest of this file
[[ $- == *v* ]] && { __sb_verbose=1; builtin set +v; }
builtin enable builtin eval read printf local history set shopt unset declare return \
  trap kill jobs exit compgen mapfile 2>/dev/null
builtin shopt -q expand_aliases && __sb_aliases=1 || __sb_aliases=0
builtin shopt -u expand_aliases
"""

AFTER_FUNCS = r"""
(( __sb_aliases )) && builtin shopt -s expand_aliases
builtin unset __sb_aliases
[[ $(builtin declare -f bind) == *__sb_rc_bind* ]] && builtin unset -f bind
__sb_editing
__sb_adopt_pc
__sb_ps1=${PS1-} __sb_ps2=${PS2-} __sb_ps0=${PS0-}
[[ -o history ]] && builtin set +o history  # (whether the rc files left it on: startup.py)
builtin unset HISTFILE
PS1='' PS2='' PS0=''
builtin export -n PS1 PS2 PS0
[[ -n ${__sb_traps[DEBUG]-} ]] && builtin trap '__sb_trap DEBUG' DEBUG
if [[ ${PROMPT_COMMAND@a} == *r* && ${PROMPT_COMMAND[0]-} != __sb_prompt ]]; then
  # the status marker comes from __sb_post alone; PS1 is the ready marker
  builtin printf 'swebash: %s\n' >&2 \
    "PROMPT_COMMAND is readonly (rc file): it runs, but Ctrl-C in a command may show no status"
  __sb_state
  __sb_emit
fi
"""

# swebash's state variables carry the session's nonce in their names, so nothing a user's rc
# file does to a guessable name (`readonly __sb_seq`, `unset __sb_cmd`) reaches them
STATE_VARS = ("cmd", "seq", "dir", "status", "traps", "ready", "ps1", "ps2", "nonce", "userhist",
              "upc", "fc", "emitted", "xtrace", "verbose", "quiet", "prevhist", "live", "kept",
              "in_upc", "aliases", "added", "line", "last", "bc_loaded", "ps0")
STATE_NAME = re.compile(r"__sb_(" + "|".join(STATE_VARS) + r")(?![A-Za-z0-9_])")


def var(name: str, nonce: str) -> str:
    """The name of state variable ``name`` (e.g. "cmd") in the session with ``nonce``."""
    return f"__sb_{name}_{nonce}"


def render(nonce: str, private_dir: str, startup: str, finish: str = "") -> str:
    """The init file; ``startup`` is the bash text that reads the user's startup files
    (``startup.Startup.script``), ``finish`` what goes after swebash's functions are defined.
    Bash sources the init file from its first PROMPT_COMMAND."""
    state = STATE.replace("@NONCE@", shlex.quote(nonce)).replace("@DIR@",
                                                                  shlex.quote(private_dir))
    parts = [state, FUNCS, COMPLETE, "PROMPT_COMMAND=(__sb_prompt)\n"]
    parts.append("bind() { : __sb_rc_bind; }  # readline bindings mean nothing here\n")
    parts.append(startup)
    # the rc file may have unset or broken our functions: define them again, aliases off
    parts += [AFTER_RC, FUNCS, COMPLETE, AFTER_FUNCS, finish]
    # sourced by the first PROMPT_COMMAND: this prompt's markers come from here
    parts.append("builtin export -n PROMPT_COMMAND\n__sb_state\n__sb_emit\n")
    return STATE_NAME.sub(lambda m: var(m.group(1), nonce), "".join(parts))
