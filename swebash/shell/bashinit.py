"""The init file of the session's bash (read as $ENV at start, see session.py; it reads the user's
startup files in bash's order, see startup.py).

How a command travels: swebash writes the user's text to a private file (0600 in a 0700 dir,
unlinked as soon as bash has read it) and sends bash one short line,
``__sb_pre SEQ MODE;builtin eval "$__sb_cmd";__sb_post SEQ "$__sb_last";<PIPESTATUS tail>``.
``__sb_pre`` reads the file, adds the line to bash's history the way bash would (HISTCONTROL,
HISTIGNORE), prints the start marker, and wraps the text between two hidden helpers: the first
restores ``$?``, ``$_`` and PIPESTATUS of the previous command and re-enables xtrace/verbose if
the user had them on; the last records them and turns xtrace/verbose off again, so ``set -x``
traces the user's commands and never swebash's plumbing. The eval runs at top level (not
inside a function), so ``declare``, ``$1``, ``return`` and aliases behave as typed at a bash
prompt, and there is no 4 KB line limit.

Then bash runs the user's PROMPT_COMMAND itself, as at its own prompt, and last swebash's hook
``__sb_prompt`` (bashstate.py says how it stays out of the user's way): it expands the user's
PS1 (``__sb_state``, for userprompt.py), prints the status marker (status, cwd) and waits on a
fifo until swebash has taken back the keys typed ahead; PS1 is the ready marker, which bash
prints after its job notices ("[1]+ Done …"), so everything bash shows before a prompt reaches
swebash before it draws its own. If Ctrl-C cut the line short, the hook finds ``__sb_post``
did not run and reports 130 (or, when the tty discarded the line, the previous sequence
number: "interrupted").

The plumbing survives what a user's rc file does: every builtin is called through ``builtin``
(functions named ``printf``, ``local`` or ``read`` do not matter; the builtins swebash needs are
re-enabled), functions are defined again after the rc file with alias expansion off, nothing
breaks under ``set -u``/``set -e``/``FUNCNEST``, and user DEBUG/ERR/RETURN/EXIT traps are
wrapped by a ``trap`` function so they never fire for swebash's own commands. Hidden helpers
(completion, environment dump, history dump) write to a fifo, so nothing they produce touches
the disk. swebash's history file holds the one history (interactive/history.py) and is loaded
into bash, so ``history``, ``fc`` and ↑ see one list; HISTFILE is bash's, as in bash.
"""

from __future__ import annotations

import re
import shlex

from swebash.shell import bashstate
from swebash.shell.bashcomplete import COMPLETE

STATE = r"""
__sb_nonce=@NONCE@
__sb_dir=@DIR@
__sb_status=0 __sb_last= __sb_xtrace=0 __sb_verbose=0 __sb_kept=0 __sb_seq=0
__sb_quiet=0 __sb_cmd= __sb_line= __sb_added=-1 __sb_bc_loaded= __sb_posted=0 __sb_mode=
__sb_u=0
__sb_prevhist= __sb_ready= __sb_userhist=1 __sb_fc=0 __sb_np=1 __sb_pl=
__sb_pcmode= __sb_pckind= __sb_pcstash= __sb_pst= __sb_pss=
__sb_hfile= __sb_hfile_set= __sb_hfile_at= __sb_hfs= __sb_hfs_user=
# bash is started with history off (`+o history`, see session.py), and then sets none of its
# defaults: HISTFILE and HISTSIZE get the values an interactive bash has before its startup
# files (HISTFILESIZE gets its default after them: AFTER_FUNCS)
[[ -n ${HISTFILE+set} ]] || HISTFILE=${HOME-}/.bash_history
[[ -n ${HISTSIZE+set} ]] || HISTSIZE=500
__sb_hfs0=${HISTFILESIZE-} __sb_hfs0_set=${HISTFILESIZE+set}
# The user's own prompt (swebash/shell/userprompt.py): PS1/PS2 as the rc file or a command left
# them, which they are while a command or PROMPT_COMMAND runs; bash's own PS1 is only ever the
# ready marker when bash prompts.
__sb_ps1= __sb_ps2= __sb_ps0= __sb_live=0
declare -a __sb_ps=(0)
declare -A __sb_traps=()
# swebash's markers go to their own descriptor on the pty, so `exec >file`, `exec 1>&-` or
# `exec > >(tee log)` (in the rc file or typed) leave the plumbing working
exec 63>&1
"""

# Function bodies use only `builtin …`, keywords and our own names, never a function or alias
# the user could define; they are parsed again after the rc file (which may have unset them).
FUNCS = r"""
# The user's `set -u` holds for their commands and PROMPT_COMMAND, not inside swebash's functions
# (which expand unset names such as an empty PROMPT_COMMAND array): each entry point from bash
# turns it off, and the last one before the user's code turns it back on
__sb_uoff() { if [[ -o nounset ]]; then __sb_u=1; builtin set +u; else __sb_u=0; fi; }
__sb_uon() { (( __sb_u )) && builtin set -u; builtin return 0; }
__sb_emit() {
  builtin local LC_ALL=C
  builtin printf '\033]6973;%s;%s;%s;%s;%s\007' "$__sb_nonce" "$__sb_seq" "$__sb_status" \
    "${#PWD}" "$PWD" >&63
}
__sb_handover() {
  builtin local ack
  while IFS= builtin read -r -t 5 ack <> "$__sb_dir/ack"; do
    [[ $ack == "$__sb_seq" ]] && builtin return 0
  done
  builtin return 0
}
# The last entry of PROMPT_COMMAND before every prompt (bashstate.py: __sb_arm). Normally
# __sb_post has recorded the status; if not, the line was cut short by Ctrl-C (or never ran:
# the tty discarded it, and the marker then carries the previous sequence number, which swebash
# takes as "interrupted"). Its first statement takes $? and PIPESTATUS as bash gave them.
__sb_prompt() {
  __sb_pst=("${PIPESTATUS[@]}") __sb_pss=$?
  __sb_uoff
  builtin local FUNCNEST=0
  __sb_disarm
  if [[ $__sb_posted != 1 ]]; then
    __sb_status=$__sb_pss __sb_ps=("${__sb_pst[@]}")
    builtin set +o history  # (on while `fc` ran)
    __sb_editing "$__sb_mode" report  # a `set -o vi` before the Ctrl-C still counts
  fi
  __sb_posted=0
  if (( __sb_quiet != 1 )); then
    __sb_state
    (( __sb_quiet )) || { __sb_emit; (( __sb_seq == 0 )) || __sb_handover; }
  fi
  __sb_quiet=0
  __sb_readymark
  __sb_uon
  builtin return 0
}
# PS1 becomes the ready marker, which bash prints after its job notices. Its field says when
# bash will read the next line with readline (a line Ctrl-C cut short left it on: bashstate.py)
__sb_readymark() {
  builtin local r=
  [[ :$SHELLOPTS: == *:emacs:* || :$SHELLOPTS: == *:vi:* ]] && r=rl
  __sb_ready=$'\e]6973;'"$__sb_nonce;$__sb_seq;-2;${#r};$r"$'\a'
  if [[ ${1-} == now || ${PS1@a} == *r* || ! /proc/self/fd/2 -ef /proc/self/fd/63 ]]; then
    builtin printf '%s' "$__sb_ready" >&63
    [[ ${PS1@a} == *r* ]] || PS1=
  else
    PS1=$__sb_ready PS2= PS0=
  fi
}
__sb_setstatus() { builtin return "$1"; }
# Before each swebash prompt, after the user's PROMPT_COMMAND: adopt PS1/PS2 a command set,
# expand them with ${…@P} and leave "$-, count of user prompt commands, PS1, PS2, PATH, names"
# for swebash (userprompt.py), and the options its editor needs (__sb_opts).
__sb_state() {
  (( __sb_live )) && __sb_ps1=${PS1-} __sb_ps2=${PS2-} __sb_ps0=${PS0-}
  __sb_live=0
  builtin local p1= p2= n=0 e
  for e in "${PROMPT_COMMAND[@]}"; do [[ -n $e ]] && (( ++n )); done
  if [[ -n $__sb_ps1 ]]; then
    [[ -o errexit ]] || __sb_setstatus "$__sb_status"; p1=${__sb_ps1@P}
    [[ -o errexit ]] || __sb_setstatus "$__sb_status"; p2=${__sb_ps2@P}
  fi
  {
    builtin printf '%s\0%s\0%s\0%s\0%s\0' "$-" "$n" "$p1" "$p2" "${PATH-}"
    builtin compgen -A function -A alias
    builtin printf '\0%s\0' "$__sb_nonce"  # the end: the file is overwritten, not truncated
  } 1<> "$__sb_dir/prompt" 2>/dev/null  # (truncating costs ~1 ms on some filesystems)
  __sb_opts
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
# $1: sequence number, $2: the editor's mode (emacs|vi), $3: $? for the line when swebash set
# it (Ctrl-C at its prompt: 130, as in bash; - for none), $4 `nohist`: not for history (the
# exit of a Ctrl-D)
__sb_pre() {
  __sb_uoff
  __sb_seq=$1 __sb_posted=0 __sb_kept=0 __sb_cmd= __sb_added=-1 __sb_mode=${2:-emacs}
  [[ -n ${3-} && $3 != - ]] && __sb_status=$3 __sb_ps=("$3")
  # the command sees the user's prompt (venv activate)
  [[ ${PS1@a}${PS2@a} == *r* ]] || PS1=$__sb_ps1 PS2=$__sb_ps2 PS0=$__sb_ps0
  __sb_live=1
  IFS= builtin read -r -d '' __sb_cmd < "$__sb_dir/cmd" || :  # (set -e: EOF is not an error)
  __sb_line=$__sb_cmd
  builtin local FUNCNEST=0
  __sb_arm a  # a Ctrl-C may cut the line short: bash then runs PROMPT_COMMAND, hook included
  # `fc` replaces its own history entry with the command it runs, as at a bash prompt
  [[ $__sb_cmd == *'+o history'* ]] && __sb_userhist=0
  __sb_fc=0
  # `fc` replaces its own history entry with the command it runs, as at a bash prompt: bash's
  # history recording is on while it runs (and the line after it is taken out again)
  if (( __sb_userhist )) && [[ ${__sb_cmd#"${__sb_cmd%%[![:space:]]*}"} == fc* ]]; then
    __sb_fc=1
  elif (( __sb_userhist )) && [[ ${HISTSIZE-} != 0 && -z ${4-} ]] && __sb_histok "$__sb_cmd"
  then
    builtin history -s -- "$__sb_cmd"
    __sb_prevhist=$__sb_cmd __sb_added=-3
    __sb_histfile || __sb_added=-4  # in bash's list, not for a history file
  fi
  __sb_psline
  __sb_cmd=$'{ __sb_restore "$__sb_last"'"$__sb_pl"$'; } 2>/dev/null\n'$__sb_cmd
  __sb_cmd+=$'\n{ __sb_keep "$_"; } 2>/dev/null'
  # (with the HISTSIZE the entry met, for swebash's copy of bash's list: histsync.py)
  builtin printf '\033]6973;%s;%s;%s;%s;%s\007' "$__sb_nonce" "$__sb_seq" "$__sb_added" \
    "${#HISTSIZE}" "${HISTSIZE-}" >&63
  # PS0 after the line is read, before it runs, on stderr (as bash prints it; not for a line
  # that is only a comment)
  if [[ -n $__sb_ps0 ]] && [[ $__sb_line == *$'\n'* || ! $__sb_line =~ ^[[:space:]]*(#.*)?$ ]]
  then builtin printf '%s' "${__sb_ps0@P}" >&2; fi
  # bash reads the rest of the line with readline as its input: `set -o vi` in an eval or a
  # sourced file is then harmless (bashstate.py)
  builtin set -o "$__sb_mode" 2>/dev/null
  __sb_uon
  builtin return 0
}
__sb_restore() {
  if (( __sb_fc )); then  # the line that ends the eval is not for history (nor HISTSIZE)
    __sb_hi=${HISTIGNORE-} __sb_hi_set=${HISTIGNORE+set}
    HISTIGNORE="${HISTIGNORE-}:{ __sb_keep*"
    builtin set -o history
  fi
  [[ $__sb_verbose == 1 ]] && { builtin set -v; builtin printf '%s\n' "$__sb_line" >&2; }
  [[ $__sb_xtrace == 1 ]] && builtin set -x
  # set -e would end the shell on a restored non-zero status
  [[ -o errexit ]] && builtin return 0
  builtin return "$__sb_status"
}
__sb_keep() {
  __sb_ps=("${PIPESTATUS[@]}") __sb_status=$? __sb_last=$1 __sb_kept=1
  __sb_uoff
  if [[ -o xtrace ]]; then __sb_xtrace=1; builtin set +x; else __sb_xtrace=0; fi
  if [[ -o verbose ]]; then __sb_verbose=1; builtin set +v; else __sb_verbose=0; fi
  # bash never records the lines it reads (swebash's control lines): history is off but for fc
  if [[ -o history ]]; then
    __sb_userhist=1
    builtin set +o history
  fi
  if (( __sb_fc )); then
    if [[ -n $__sb_hi_set ]]; then HISTIGNORE=$__sb_hi; else builtin unset HISTIGNORE; fi
  fi
  __sb_fc=0
}
# After the line: then bash runs PROMPT_COMMAND (the hook last) with $?, $_ and PIPESTATUS of
# the line, which the rest of swebash's control line gives back (bashstate.PIPESTATUS_TAIL)
__sb_post() {
  builtin local "s=$?"
  [[ $__sb_kept == 1 ]] || { __sb_uoff; __sb_status=$s __sb_ps=("$s"); }
  __sb_seq=$1 __sb_posted=1
  builtin enable builtin eval read printf local history set shopt unset declare return \
    trap kill jobs exit compgen mapfile 2>/dev/null
  builtin local FUNCNEST=0
  __sb_editing "$__sb_mode"
  __sb_np=1
  if __sb_rearm; then
    __sb_user_pc && __sb_psok && __sb_np=${#__sb_ps[@]}
  else  # PROMPT_COMMAND readonly: it runs after this prompt, as bash runs it
    __sb_state
    __sb_emit
    __sb_handover
    __sb_readymark now
  fi
  __sb_uon
  builtin return 0
}
# A helper's output goes to the fifo; the user's PROMPT_COMMAND does not run after it.
__sb_hidden() {
  __sb_seq=$1 __sb_quiet=1 __sb_posted=1
  builtin shift
  builtin local o=  # (not from $-: under `shopt -s nocasematch` *e* would match its E)
  [[ -o errexit ]] && o+=e
  [[ -o nounset ]] && o+=u
  builtin set +euxv
  builtin local FUNCNEST=0
  __sb_editing "$__sb_mode"  # (a line cut short left readline on)
  __sb_arm s
  "$@" >| "$__sb_dir/hidden" 2>/dev/null
  [[ $o == *u* ]] && builtin set -u
  [[ $o == *e* ]] && builtin set -e
  [[ -n $__sb_pcmode ]] || __sb_readymark now  # PROMPT_COMMAND readonly: the hook never runs
  builtin return "$__sb_status"
}
# An empty line: bash runs PROMPT_COMMAND again and the prompt is drawn anew
__sb_refresh() {
  __sb_uoff
  __sb_quiet=2
  __sb_disarm
  if __sb_arm a; then
    [[ ${PS1@a}${PS2@a} == *r* ]] || PS1=$__sb_ps1 PS2=$__sb_ps2
    __sb_live=1 __sb_np=1
    __sb_user_pc && __sb_psok && __sb_np=${#__sb_ps[@]}
  fi
  __sb_uon
  builtin return 0
}
__sb_env() { command env -0; }
# User DEBUG/ERR/RETURN traps run for the user's commands only, never for swebash's; a user
# EXIT trap runs after swebash's own (__sb_exit: the history file, as bash writes it at exit).
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
      EXIT|0|SIGEXIT)
        if [[ -z $a || $a == - ]]; then builtin unset "__sb_traps[EXIT]"
        else __sb_traps[EXIT]=$a
        fi ;;
      *) rest+=("$s") ;;
    esac
  done
  (( ${#rest[@]} == 0 )) || builtin trap -- "$a" "${rest[@]}"
}
# traced: bash puts back a DEBUG trap that an untraced function removed (`trap - DEBUG`)
builtin declare -ft trap 2>/dev/null || :
__sb_trap() {
  [[ $BASH_COMMAND == *__sb_* || ${FUNCNAME[1]-} == @(__sb_*|trap) ]] && builtin return 0
  builtin eval "${__sb_traps[$1]-}"
}
# DEBUG/ERR/RETURN are not inherited by functions, so `trap -p` here would not show them:
# they come from what the `trap` function kept (and EXIT is swebash's)
__sb_trap_print() {
  builtin local line name
  builtin trap -p "$@" >| "$__sb_dir/traps"
  while IFS= builtin read -r line; do
    case ${line##* } in DEBUG|ERR|RETURN|EXIT) ;; *) builtin printf '%s\n' "$line" ;; esac
  done < "$__sb_dir/traps"
  : >| "$__sb_dir/traps"
  for name in EXIT DEBUG ERR RETURN; do
    [[ -n ${__sb_traps[$name]+set} ]] || continue
    (( $# == 0 )) || [[ " ${*^^} " == *" $name "* ]] || [[ $name == EXIT \
      && ( " ${*^^} " == *" 0 "* || " ${*^^} " == *" SIGEXIT "* ) ]] || continue
    builtin printf 'trap -- %s %s\n' "${__sb_traps[$name]@Q}" "$name"
  done
}
"""

AFTER_RC = r"""
{ [[ -o xtrace ]] && { __sb_xtrace=1; builtin set +x; }; } 2>/dev/null
if [[ -o nounset ]]; then __sb_u=1; builtin set +u; else __sb_u=0; fi  # (on again at the end)
builtin trap - DEBUG  # a user's DEBUG trap must not see the rest of this file
[[ -o verbose ]] && { __sb_verbose=1; builtin set +v; }
builtin enable builtin eval read printf local history set shopt unset declare return \
  trap kill jobs exit compgen mapfile 2>/dev/null
builtin shopt -q expand_aliases && __sb_aliases=1 || __sb_aliases=0
builtin shopt -u expand_aliases
"""

AFTER_FUNCS = r"""
(( __sb_aliases )) && builtin shopt -s expand_aliases
builtin unset __sb_aliases
__sb_editing ''
__sb_ps1=${PS1-} __sb_ps2=${PS2-} __sb_ps0=${PS0-}
[[ -o history ]] && builtin set +o history  # (whether the files left it on: startup.py)
# bash's default for HISTFILESIZE comes after the startup files, from their HISTSIZE; not one
# the user set (__sb_histstash)
[[ -n ${HISTFILESIZE+set} ]] || { HISTFILESIZE=${HISTSIZE-500}; __sb_hfs0=$HISTFILESIZE
  __sb_hfs0_set=set; }
__sb_histstash
builtin export -n PS1 PS2 PS0
PS0=''
[[ -n ${__sb_traps[DEBUG]-} ]] && builtin trap '__sb_trap DEBUG' DEBUG
builtin trap __sb_exit EXIT
# The first prompt: PROMPT_COMMAND as the startup files left it runs, then the hook
[[ ${PS1@a}${PS2@a} == *r* ]] || PS1=$__sb_ps1 PS2=$__sb_ps2 PS0=$__sb_ps0
__sb_live=1
if ! __sb_rearm; then
  builtin printf 'swebash: %s\n' >&2 \
    "PROMPT_COMMAND is readonly (rc file): it runs after swebash's prompt is drawn"
  __sb_state
  __sb_emit
  __sb_readymark now
fi
__sb_uon
"""

# Before the startup files: a Ctrl-C that cuts them short skips the rest of this file, and the
# first prompt still needs the hook
EARLY = r"""
__sb_live=1
__sb_arm a
builtin trap __sb_exit EXIT
"""

# Bash reads this file as $ENV in posix mode (session.py): the first thing is to leave posix
# mode (it also turned inherit_errexit on), and to give the user's $ENV back
SAVED_ENV = "SWEBASH_SAVED_ENV"
KEEP_INHERIT_ERREXIT = "SWEBASH_KEEP_INHERIT_ERREXIT"
PRELUDE = r"""
builtin set +o posix
[[ -n ${SWEBASH_KEEP_INHERIT_ERREXIT-} ]] || builtin shopt -u inherit_errexit
builtin unset SWEBASH_KEEP_INHERIT_ERREXIT
if [[ -n ${SWEBASH_SAVED_ENV+set} ]]; then
  ENV=$SWEBASH_SAVED_ENV; builtin unset SWEBASH_SAVED_ENV
else
  builtin unset ENV
fi
"""


# swebash's state variables carry the session's nonce in their names, so nothing a user's rc
# file does to a guessable name (`readonly __sb_seq`, `unset __sb_cmd`) reaches them
STATE_VARS = ("cmd", "seq", "dir", "status", "traps", "ready", "ps1", "ps2", "ps0", "nonce", "u",
              "userhist", "fc", "xtrace", "verbose", "quiet", "prevhist", "live", "kept",
              "aliases", "added", "line", "last", "bc_loaded", "pce", "hi", "hi_set",
              *bashstate.STATE_VARS)
STATE_NAME = re.compile(r"__sb_(" + "|".join(STATE_VARS) + r")(?![A-Za-z0-9_])")


def var(name: str, nonce: str) -> str:
    """The name of state variable ``name`` (e.g. "cmd") in the session with ``nonce``."""
    return f"__sb_{name}_{nonce}"


def render(nonce: str, private_dir: str, startup: str, finish: str = "") -> str:
    """The init file; ``startup`` is the bash text that reads the user's startup files
    (``startup.Startup.script``), ``finish`` what goes after swebash's functions are defined.
    Bash reads the init file as $ENV (see session.py)."""
    state = STATE.replace("@NONCE@", shlex.quote(nonce)).replace("@DIR@",
                                                                  shlex.quote(private_dir))
    parts = [PRELUDE, state, FUNCS, bashstate.STATE_FUNCS, COMPLETE, EARLY, startup]
    # the startup files may have unset or broken our functions: define them again, aliases off
    parts += [AFTER_RC, FUNCS, bashstate.STATE_FUNCS, COMPLETE, AFTER_FUNCS, finish]
    return STATE_NAME.sub(lambda m: var(m.group(1), nonce), "".join(parts))


# `set +o vi` while bash's readline is in vi mode (emacs alike) switches bash's input to a stream
# on stdin, unguarded: inside swebash's `eval` of the line, the eval then reads on from the
# terminal and never ends. A line that says so runs in the other mode, where it does nothing,
# and swebash's editor takes that mode (as it takes a `set +o vi` typed alone).
MODE_OFF = re.compile(r"\bset\s+(?:-\S+\s+)*\+o\s+(vi|emacs)\b")


def run_mode(line: str, mode: str) -> str:
    """The editing mode bash runs ``line`` in: the other one if the line turns ``mode`` off."""
    if any(found.group(1) == mode for found in MODE_OFF.finditer(line)):
        return "emacs" if mode == "vi" else "vi"
    return mode


def command_line(seq: int, nonce: str, mode: str, status: int | None, *,
                 history: bool = True) -> str:
    """The line that runs the user's text (written to the private file ``cmd``)."""
    args = "" if status is None else f" {status}"
    if not history:
        args = f"{args or ' -'} nohist"
    return (f'__sb_pre {seq} {mode}{args};builtin eval "${var("cmd", nonce)}";'
            f'__sb_post {seq} "${var("last", nonce)}";'
            + bashstate.pipestatus_tail(var("np", nonce), var("last", nonce)) + "\n")


def refresh_command(nonce: str) -> str:
    """The helper for an empty line (bash runs PROMPT_COMMAND again), with the same tail."""
    return (f'__sb_refresh "${var("last", nonce)}";'
            + bashstate.pipestatus_tail(var("np", nonce), var("last", nonce)))
