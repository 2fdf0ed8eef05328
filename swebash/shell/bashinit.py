"""The rcfile the session's bash starts with.

How a command travels: swebash writes the user's text to a private file and sends bash one
short line, ``__sb_pre SEQ; eval "$__sb_cmd"; __sb_post``. ``__sb_pre`` reads the file and
wraps the text between two hidden helpers: the first restores ``$?`` and ``$_`` of the previous
command (so ``false`` then ``echo $?`` prints 1, and ``echo $_`` works as at a bash prompt) and
re-enables xtrace if the user had it on; the last records the status and ``$_`` and turns xtrace
off again, so ``set -x`` traces the user's commands and never swebash's plumbing. Both run inside
``{ …; } 2>/dev/null`` so their own trace lines vanish. The eval runs at top level (not inside a
function), so ``declare``, ``$1``, ``return`` and aliases behave as typed at a bash prompt, and
there is no 4 KB line limit. ``__sb_post`` prints the marker (see markers.py). If Ctrl-C aborts
the line, bash goes straight to its prompt and PROMPT_COMMAND prints the marker instead, with
status 130. Hidden helper commands (completion, environment dump) start with a space and match
HISTIGNORE, so bash's history never sees them, and the next command restores ``$?``/``$_``.
Bash never writes a history file: swebash owns the persistent history, so HISTFILE is unset
after the user's rcfile too.
"""

from __future__ import annotations

import shlex

INIT = r"""
__sb_nonce=@NONCE@
__sb_dir=@DIR@
__sb_status=0
__sb_last=
__sb_xtrace=0
__sb_kept=0
__sb_seq=0
__sb_emitted=0
__sb_cmd=
# The user's own prompt (swebash/shell/userprompt.py): PS1/PS2 and PROMPT_COMMAND as the rc file
# or a command left them. Bash's own PS1 stays empty so bash never draws a prompt; __sb_state
# runs the user's PROMPT_COMMAND as bash would before a prompt and hands swebash ${PS1@P}.
__sb_ps1= __sb_ps2= __sb_upc=() __sb_live=0 __sb_in_upc=0
unset HISTFILE
HISTCONTROL=ignorespace
HISTIGNORE='__sb_*:[ ]__sb_*'
PS1='' PS2='' PS0=''
__sb_emit() {
  local LC_ALL=C
  printf '\033]6973;%s;%s;%s;%s;%s\007' "$__sb_nonce" "$__sb_seq" "$__sb_status" "${#PWD}" "$PWD"
  __sb_emitted=1
}
# After a command's marker, wait until swebash has taken back the keys typed ahead during the
# command (see session.py), so bash never reads them as its next command line.
__sb_handover() {
  local ack
  while IFS= read -r -t 5 ack <> "$__sb_dir/ack"; do [[ $ack == "$__sb_seq" ]] && return; done
}
# Normally __sb_post or __sb_hidden has emitted the marker. If not, the line was cut short: a
# Ctrl-C during the command, or one that arrived before bash read swebash's line (the tty then
# discards the line, so __sb_pre never ran and the marker carries the previous sequence number,
# which swebash takes as "your line was interrupted").
__sb_prompt() {
  local s=$?
  [[ $__sb_in_upc == 1 ]] && return "$s"  # "x;$PROMPT_COMMAND" kept in the user's commands
  if [[ $__sb_emitted != 1 ]]; then
    __sb_status=$s
    __sb_state
    __sb_emit
    (( __sb_seq == 0 )) || __sb_handover
  fi
  __sb_emitted=0
}
__sb_pre() {
  __sb_seq=$1 __sb_emitted=0 __sb_kept=0 __sb_cmd=
  PS1=$__sb_ps1 PS2=$__sb_ps2 __sb_live=1  # the command sees the user's prompt (venv activate)
  IFS= read -r -d '' __sb_cmd < "$__sb_dir/cmd"
  [[ -n $__sb_cmd && $__sb_cmd != [[:space:]]* ]] && history -s -- "$__sb_cmd"
  __sb_cmd=$'{ __sb_restore "$__sb_last"; } 2>/dev/null\n'$__sb_cmd
  __sb_cmd+=$'\n{ __sb_keep "$_"; } 2>/dev/null'
  printf '\033]6973;%s;%s;-1;0;\007' "$__sb_nonce" "$__sb_seq"  # the start marker
}
__sb_restore() {
  [[ $__sb_xtrace == 1 ]] && set -x
  # set -e would end the shell on a restored non-zero status
  [[ $- == *e* ]] && return 0
  return "$__sb_status"
}
__sb_keep() {
  __sb_status=$? __sb_last=$1 __sb_kept=1
  if [[ $- == *x* ]]; then __sb_xtrace=1; set +x; else __sb_xtrace=0; fi
}
__sb_post() {
  local s=$?
  [[ $__sb_kept == 1 ]] || __sb_status=$s
  # swebash draws the prompt; a venv's activate or a user's PS1= must not make bash print one
  __sb_state
  __sb_emit
  __sb_handover
}
__sb_hidden() {
  __sb_seq=$1
  shift
  "$@" > "$__sb_dir/hidden" 2>/dev/null
  __sb_emit
}
__sb_env() { env -0; }
__sb_setstatus() { return "$1"; }
# Take over what a command did to PROMPT_COMMAND: an assignment that drops __sb_prompt replaces
# the user's commands, one that keeps it ("x;$PROMPT_COMMAND", +=(x)) adds to them.
__sb_adopt_pc() {
  local e mentions=0
  local -a fresh=()
  for e in "${PROMPT_COMMAND[@]}"; do
    [[ $e == *__sb_prompt* ]] && mentions=1
    [[ $e == __sb_prompt || -z $e ]] || fresh+=("$e")
  done
  if (( mentions )); then __sb_upc+=("${fresh[@]}"); else __sb_upc=("${fresh[@]}"); fi
  PROMPT_COMMAND=(__sb_prompt)
}
# Before each swebash prompt: adopt PS1/PS2 a command set, run the user's PROMPT_COMMAND with $?
# of the command (at most once per prompt, as bash does), expand the prompts with ${…@P} and
# leave "$-, count of user prompt commands, PS1, PS2" NUL-separated for swebash; bash's own
# prompts are then emptied again.
__sb_state() {
  __sb_adopt_pc
  (( __sb_live )) && __sb_ps1=$PS1 __sb_ps2=$PS2
  __sb_live=0
  if (( ${#__sb_upc[@]} )); then
    PS1=$__sb_ps1 PS2=$__sb_ps2 __sb_in_upc=1
    local __sb_c
    [[ $- == *e* ]] || __sb_setstatus "$__sb_status"  # set -e would end the shell
    for __sb_c in "${__sb_upc[@]}"; do eval "$__sb_c"; done
    __sb_ps1=$PS1 __sb_ps2=$PS2 __sb_in_upc=0
    __sb_adopt_pc
  fi
  local p1= p2=
  if [[ -n $__sb_ps1 ]]; then
    [[ $- == *e* ]] || __sb_setstatus "$__sb_status"; p1=${__sb_ps1@P}
    [[ $- == *e* ]] || __sb_setstatus "$__sb_status"; p2=${__sb_ps2@P}
  fi
  printf '%s\0%s\0%s\0%s\0' "$-" "${#__sb_upc[@]}" "$p1" "$p2" >| "$__sb_dir/prompt"
  PS1='' PS2='' PS0=''
}
# Programmable completion: bash-completion's loader when installed, otherwise the command's own
# completion file (git ships one even where bash-completion is absent).
__sb_load_completion() {
  local cmd=$1 dir name
  if [[ -z $__sb_bc_loaded && -r /usr/share/bash-completion/bash_completion ]]; then
    __sb_bc_loaded=1
    . /usr/share/bash-completion/bash_completion >/dev/null 2>&1
  fi
  if declare -F _completion_loader >/dev/null; then
    _completion_loader "$cmd" >/dev/null 2>&1
    return
  fi
  [[ $cmd == */* || -z $cmd ]] && return
  local -a dirs
  IFS=: read -r -a dirs <<< "${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
  dirs=("${BASH_COMPLETION_USER_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion}"
        "${dirs[@]/%//bash-completion}")
  for dir in "${dirs[@]}"; do
    for name in "$cmd" "$cmd.bash" "_$cmd"; do
      if [[ -r $dir/completions/$name ]]; then
        . "$dir/completions/$name" >/dev/null 2>&1
        return
      fi
    done
  done
}
__sb_complete() {
  local line
  IFS= read -r -d '' line < "$__sb_dir/cline"
  local -a words
  read -r -a words <<< "$line"
  local cur=
  [[ $line == *[[:space:]] || -z $line ]] || cur=${words[${#words[@]}-1]}
  [[ -z $cur ]] && words+=("")
  local cword=$(( ${#words[@]} - 1 ))
  local cmd=${words[0]}
  if (( cword == 0 )); then
    compgen -A alias -A function -A builtin -A keyword -A command -- "$cur" | sort -u
    return
  fi
  if [[ $cur == \$* ]]; then
    compgen -v -P '$' -- "${cur#\$}"
    return
  fi
  complete -p -- "$cmd" >/dev/null 2>&1 || __sb_load_completion "$cmd"
  local spec
  spec=$(complete -p -- "$cmd" 2>/dev/null)
  if [[ $spec =~ -F[[:space:]]+([^[:space:]]+) ]]; then
    local func=${BASH_REMATCH[1]}
    COMP_WORDS=("${words[@]}") COMP_CWORD=$cword COMP_LINE=$line COMP_POINT=${#line}
    COMP_TYPE=9 COMP_KEY=9
    COMPREPLY=()
    "$func" "$cmd" "$cur" "${words[cword-1]}" >/dev/null 2>&1
    local reply
    for reply in "${COMPREPLY[@]}"; do printf '%s\n' "${reply% }"; done
    [[ ${#COMPREPLY[@]} -gt 0 || $spec != *"-o default"* && $spec != *"-o bashdefault"* ]] \
      && return
  fi
  local f
  while IFS= read -r f; do
    [[ -d $f ]] && f+=/
    printf '%s\n' "$f"
  done < <(compgen -f -- "$cur")
}
if [[ $PROMPT_COMMAND != *__sb_prompt* ]]; then
  PROMPT_COMMAND=(__sb_prompt)
fi
"""

LOGIN = r"""
[[ -r /etc/profile ]] && . /etc/profile
if [[ -r ~/.bash_profile ]]; then . ~/.bash_profile
elif [[ -r ~/.bash_login ]]; then . ~/.bash_login
elif [[ -r ~/.profile ]]; then . ~/.profile
fi
"""

AFTER_RC = r"""
__sb_adopt_pc
__sb_ps1=$PS1 __sb_ps2=$PS2
unset HISTFILE
PS1='' PS2='' PS0=''
export -n PS1 PS2 PS0
[[ $HISTIGNORE == *'__sb_*'* ]] || HISTIGNORE="__sb_*:[ ]__sb_*${HISTIGNORE:+:$HISTIGNORE}"
"""


def render(nonce: str, private_dir: str, rcfile: str | None, login: bool) -> str:
    parts = [INIT.replace("@NONCE@", shlex.quote(nonce)).replace("@DIR@",
                                                                 shlex.quote(private_dir))]
    if login:
        parts.append(LOGIN)
    if rcfile:
        quoted = shlex.quote(rcfile)
        parts.append(f"[[ -r {quoted} ]] && . {quoted}\n")
    parts.append(AFTER_RC)
    return "".join(parts)
