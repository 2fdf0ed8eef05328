"""Bash state that must look exactly as at a bash prompt (part of the rcfile, see bashinit.py):
PROMPT_COMMAND, PIPESTATUS, the history and HISTFILE, the editing mode.

PROMPT_COMMAND is the user's variable, run by bash itself (at top level, once per prompt, with
``$?``, ``$_`` and PIPESTATUS of the line — bash-preexec, atuin and starship rely on all of
that). swebash's own hook, ``__sb_prompt``, must run after it before every prompt, and bash runs
nothing else there: so ``__sb_arm`` appends the hook as the last entry (a string value becomes
entry 0 of an array, its other entries untouched) and the hook takes itself out again, giving
the variable back its shape (string, array, unset; ``export``). Bash also runs PROMPT_COMMAND
after a Ctrl-C has cut a line short, and no shell code of swebash runs then — no trap fires
reliably (an INT trap changes what bash does after Ctrl-C; other traps queued meanwhile are
discarded with the line) — so the hook is armed from the start of each line to the end of
the next PROMPT_COMMAND: while a command runs, ``declare -p PROMPT_COMMAND`` shows it as one
more entry (README: deliberate differences); ``echo $PROMPT_COMMAND``, prepending and appending
(``x;$PROMPT_COMMAND``, ``+=`` a string or an array entry) see and keep the user's value, and
the hook is moved back to the end before bash runs it. A helper's line (completion, ``ai``)
stashes the user's value and runs the hook alone.

PIPESTATUS: ``__sb_keep`` saves it with ``$?``; the next line gets it back from a pipeline of
``__sb_p`` calls (each returns one saved status) at the start of its text, and the line that
runs a command ends in one (``PIPESTATUS_TAIL``), so PROMPT_COMMAND sees it too. Bash sets
PIPESTATUS only from a pipeline in the text it parses, hence a ``case`` over the pipeline's
length. A pipeline costs a fork per stage, so single statuses, the common case, take none.

History: bash's own list is loaded from swebash's file with HISTCONTROL/HISTIGNORE off (the
file's entries are already in), then bash's bookkeeping is set as after its own start — no line
of this session yet, HISTFILE's lines counted as read — so ``history -a``, ``-n``, ``-w``,
``-r`` and the write at exit act on HISTFILE exactly as in bash (histappend, HISTFILESIZE). At
exit bash saves nothing itself (its recording is off: it would record swebash's control
lines), so an EXIT trap does the append and the truncation it would do.

Editing mode: the session's bash reads swebash's lines without readline (``--noediting``), and
bash 5.2 crashes (SIGSEGV) when ``set -o vi|emacs`` runs inside ``eval`` or ``source`` then:
the switch to readline replaces the input the ``eval`` is reading. So while a line runs, bash's
top-level input *is* readline (``__sb_pre`` sets the editor's mode), which makes a switch
inside ``eval`` a no-op, and ``__sb_post`` switches back and reports a changed mode to swebash.
If Ctrl-C cut the line short, bash reads the next line with readline; the ready marker says so
and swebash drops readline's echo of that line.
"""

from __future__ import annotations

PIPESTATUS_STAGES = 8  # longest pipeline whose statuses PROMPT_COMMAND gets back


def pipestatus_tail(np_var: str, last_var: str) -> str:
    """The end of a command's control line: PIPESTATUS, ``$?`` and ``$_`` for PROMPT_COMMAND."""
    cases = ";;".join(f"{n})" + "|".join(f"__sb_p {i}" for i in range(n))
                      for n in range(2, PIPESTATUS_STAGES + 1))
    return f'case ${np_var} in {cases};;*)__sb_s "${last_var}";;esac'


STATE_FUNCS = r"""
# ---------------------------------------------------------------- PROMPT_COMMAND
# $1: a — the hook after the user's commands (a command's line); s — instead of them (a helper)
__sb_arm() {
  [[ -n $__sb_pcmode ]] && builtin return 0
  builtin local "at=${PROMPT_COMMAND@a}"
  [[ -n ${at//[axt]} ]] && builtin return 1  # readonly, associative, -i/-l/-u: bash runs it as is
  if [[ $1 == s ]]; then
    __sb_pcstash=${PROMPT_COMMAND[@]@A}
    builtin unset PROMPT_COMMAND
    PROMPT_COMMAND=(__sb_prompt)
  else
    if [[ $at == *a* ]]; then __sb_pckind=array
    elif [[ -n ${PROMPT_COMMAND+set} ]]; then __sb_pckind=scalar
    else __sb_pckind=unset
    fi
    builtin local -a i
    i=("${!PROMPT_COMMAND[@]}")
    PROMPT_COMMAND[${#i[@]} ? i[-1] + 1 : 1]=__sb_prompt
  fi
  __sb_pcmode=$1
}
__sb_disarm() {
  # made readonly while the hook was in it (`readonly PROMPT_COMMAND=…` in an rc file or a
  # command): nothing can change it; the hook stays in it and runs, in the user's order
  if [[ ${PROMPT_COMMAND@a} == *r* ]]; then
    __sb_pcmode= __sb_pcstash=
    [[ ${PROMPT_COMMAND@a} == *a* && " ${PROMPT_COMMAND[*]} " == *" __sb_prompt "* ]] &&
      __sb_pcmode=a
    builtin return 0
  fi
  if [[ $__sb_pcmode == s ]]; then
    builtin unset PROMPT_COMMAND
    [[ -z $__sb_pcstash ]] || builtin eval "${__sb_pcstash/#declare /declare -g }"
  elif [[ $__sb_pcmode == a ]]; then
    builtin local k found= last=1 at
    builtin local -a i
    i=("${!PROMPT_COMMAND[@]}")
    for k in "${i[@]}"; do
      [[ ${PROMPT_COMMAND[k]} == __sb_prompt ]] || builtin continue
      builtin unset "PROMPT_COMMAND[$k]"
      found=1
      [[ $k == "${i[-1]}" ]] || last=0
    done
    if [[ -n $found && ${PROMPT_COMMAND@a} == *a* ]]; then
      i=("${!PROMPT_COMMAND[@]}")
      if [[ $__sb_pckind == unset ]] && (( ${#i[@]} == 0 )); then
        builtin unset PROMPT_COMMAND
      elif [[ $__sb_pckind == scalar && ${i[*]} == 0 ]]; then
        k=${PROMPT_COMMAND[0]} at=${PROMPT_COMMAND@a}
        builtin unset PROMPT_COMMAND
        PROMPT_COMMAND=$k
        [[ $at == *x* ]] && builtin export PROMPT_COMMAND
        [[ $at == *t* ]] && builtin declare -gt PROMPT_COMMAND
      elif (( ! last )); then
        PROMPT_COMMAND=("${PROMPT_COMMAND[@]}")
      fi
    fi
  fi
  __sb_pcmode= __sb_pcstash=
  builtin return 0
}
# Before bash runs PROMPT_COMMAND: the hook its last entry again (a command may have replaced
# the variable or appended after the hook); false when it cannot be there
__sb_rearm() {
  if [[ ${PROMPT_COMMAND@a} == *r* ]]; then
    __sb_disarm
    [[ $__sb_pcmode == a ]]
    builtin return
  fi
  if [[ $__sb_pcmode == a ]]; then
    builtin local -a i
    i=("${!PROMPT_COMMAND[@]}")
    (( ${#i[@]} )) && [[ ${PROMPT_COMMAND@a} == *a* \
      && ${PROMPT_COMMAND[i[-1]]} == __sb_prompt ]] && builtin return 0
  fi
  __sb_disarm
  __sb_arm a
}
__sb_user_pc() {  # does the user have a prompt command (the hook aside)?
  builtin local e
  for e in "${PROMPT_COMMAND[@]}"; do
    [[ -n $e && $e != __sb_prompt ]] && builtin return 0
  done
  builtin return 1
}

# ---------------------------------------------------------------- PIPESTATUS
__sb_p() { builtin return "${__sb_ps[$1]}"; }
__sb_s() { [[ -o errexit ]] && builtin return 0; builtin return "$__sb_status"; }
# Would a pipeline of __sb_p give $? back too, and not end the shell under set -e?
__sb_psok() {
  (( ${#__sb_ps[@]} > 1 )) || builtin return 1
  builtin local i want=0
  if [[ :$SHELLOPTS: == *:pipefail:* ]]; then
    for i in "${__sb_ps[@]}"; do (( i )) && want=$i; done
  else
    want=${__sb_ps[-1]}
  fi
  [[ $want == "$__sb_status" ]] || builtin return 1
  [[ -o errexit ]] && (( want )) && builtin return 1
  # its xtrace would show where BASH_XTRACEFD points (stderr is /dev/null for it)
  [[ $__sb_xtrace == 1 && -n ${BASH_XTRACEFD-} ]] && builtin return 1
  builtin return 0
}
__sb_psline() {  # the pipeline that gives PIPESTATUS back, for the start of a line's text
  __sb_pl=
  __sb_psok || builtin return 0
  builtin local i
  for i in "${!__sb_ps[@]}"; do __sb_pl+="${__sb_pl:+|}__sb_p $i"; done
  __sb_pl="; $__sb_pl"
}

# ---------------------------------------------------------------- history
__sb_histfile() {  # are commands kept in a history file? (unset HISTFILE: not in swebash's)
  [[ -n ${HISTFILE-} && $HISTFILE != /dev/null ]]
}
# HISTFILE and HISTFILESIZE as the startup files left them; bash's own start would read the
# file into its list, swebash's file is loaded instead (__sb_histload puts HISTFILE back)
__sb_histstash() {
  __sb_hfile=${HISTFILE-} __sb_hfile_set=${HISTFILE+1} __sb_hfile_at=${HISTFILE@a}
  __sb_hfs=${HISTFILESIZE-} __sb_hfs_user=
  if [[ -n ${HISTFILESIZE+set} ]]; then
    [[ -z $__sb_hfs0_set || $HISTFILESIZE != "$__sb_hfs0" || ${HISTFILESIZE@a} == *x* ]] \
      && __sb_hfs_user=1
  fi
  builtin unset HISTFILE
}
__sb_histinfo() {
  builtin printf '%s\0' "${HISTSIZE-}" "$__sb_hfile_set" "$__sb_hfile" "$__sb_hfs_user" \
    "$__sb_hfs"
}
__sb_histload() {
  builtin local -a __sb_h
  builtin local e "hc=${HISTCONTROL-}" "hi=${HISTIGNORE-}" "hcs=${HISTCONTROL+1}" \
    "his=${HISTIGNORE+1}"
  builtin mapfile -d '' -t __sb_h < "$__sb_dir/histload"
  HISTCONTROL= HISTIGNORE=
  builtin history -c
  for e in "${__sb_h[@]}"; do builtin history -s -- "$e"; done
  if [[ -n $hcs ]]; then HISTCONTROL=$hc; else builtin unset HISTCONTROL; fi
  if [[ -n $his ]]; then HISTIGNORE=$hi; else builtin unset HISTIGNORE; fi
  __sb_prevhist=${e-}
  # bash's bookkeeping as after its own start: no line of this session yet (what `history -a`
  # and the exit append), HISTFILE's lines read (where `history -n` goes on from): -r of a file
  # of as many empty lines counts them and adds nothing
  builtin history -a /dev/null
  builtin history -r "$__sb_dir/histlines"
  if [[ -n $__sb_hfile_set ]]; then
    HISTFILE=$__sb_hfile
    [[ $__sb_hfile_at == *x* ]] && builtin export HISTFILE
  fi
  builtin return 0
}
__sb_histdump() {  # bash's list: each entry behind a time format only this session knows
  builtin printf '%s\0' "${HISTSIZE-}"
  HISTTIMEFORMAT=$'\1'"$__sb_nonce"$'\2' builtin history
}
# What bash does with HISTFILE at exit (it cannot itself: its recording is off)
__sb_histsave() {
  [[ -n ${HISTFILE-} ]] || builtin return 0
  builtin history -a 2>/dev/null
  [[ -n ${HISTFILESIZE+set} ]] && HISTFILESIZE=$HISTFILESIZE  # truncates HISTFILE, as at exit
  builtin return 0
}
__sb_exit() {
  builtin local "s=$?"
  __sb_histsave
  __sb_setstatus "$s"
  [[ -z ${__sb_traps[EXIT]-} ]] || builtin eval "${__sb_traps[EXIT]}"
}

# ---------------------------------------------------------------- editing mode
# `set -o vi|emacs` (the rc file, a command, a function, a sourced file) belong to swebash's
# line editor. Bash reads swebash's lines without readline again; a changed mode goes to
# swebash. $1: the mode the line ran with ('' for the startup files); $2 `report`: only say it
# (in PROMPT_COMMAND bash would not switch back: the ready marker says readline reads next)
__sb_editing() {
  builtin local m=
  [[ :$SHELLOPTS: == *:emacs:* ]] && m=emacs
  [[ :$SHELLOPTS: == *:vi:* ]] && m=vi
  [[ -z $m ]] && builtin return 0
  [[ ${2-} == report ]] || builtin set +o "$m"
  [[ $m == "${1-}" ]] && builtin return 0
  __sb_mode=$m
  builtin printf '\033]6973;%s;%s;-5;%s;%s\007' "$__sb_nonce" "$__sb_seq" "${#m}" "$m" >&63
  builtin return 0
}

# ---------------------------------------------------------------- options for swebash
# What swebash's editor needs before a prompt: shopt (histverify), set -o, IGNOREEOF, HISTFILE
__sb_opts() {
  {
    builtin printf '%s\0' "$BASHOPTS" "$SHELLOPTS" "${IGNOREEOF-$'\1'}" "${HISTFILE-}" \
      "${HISTSIZE-}"
    builtin printf '\0%s\0' "$__sb_nonce"  # the end: the file is overwritten, not truncated
  } 1<> "$__sb_dir/opts" 2>/dev/null
}
"""

STATE_VARS = ("ps", "np", "pl", "pcmode", "pckind", "pcstash", "posted", "mode",
              "hfile", "hfile_set", "hfile_at", "hfs", "hfs_user", "hfs0", "hfs0_set", "pst",
              "pss")
