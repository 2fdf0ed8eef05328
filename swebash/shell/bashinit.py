"""The rcfile the session's bash starts with.

How a command travels: swebash writes the user's text to a private file and sends bash one
short line, ``__sb_pre SEQ; …; eval "$__sb_cmd"; __sb_post``. The eval runs at top level (not
inside a function), so ``declare``, ``$1``, ``return`` and aliases behave as typed at a bash
prompt; there is no 4 KB line limit; ``$?`` is restored first so ``echo $?`` sees the previous
command. ``__sb_post`` prints the marker (see markers.py). If Ctrl-C aborts the line, bash goes
straight to its prompt and PROMPT_COMMAND prints the marker instead, with status 130.
Hidden helper commands (completion, environment dump) leave ``$?`` and history untouched.
"""

from __future__ import annotations

import shlex

INIT = r"""
__sb_nonce=@NONCE@
__sb_dir=@DIR@
__sb_status=0
__sb_seq=0
__sb_emitted=0
__sb_cmd=
unset HISTFILE
HISTCONTROL=ignorespace
HISTIGNORE='__sb_*'
PS1='' PS2='' PS0=''
__sb_ret() { return "$1"; }
__sb_emit() {
  local LC_ALL=C
  printf '\033]6973;%s;%s;%s;%s;%s\007' "$__sb_nonce" "$__sb_seq" "$__sb_status" "${#PWD}" "$PWD"
  __sb_emitted=1
}
__sb_prompt() {
  local s=$?
  if [[ $__sb_emitted != 1 ]]; then __sb_status=$s; __sb_emit; fi
}
__sb_pre() {
  __sb_seq=$1 __sb_emitted=0 __sb_cmd=
  IFS= read -r -d '' __sb_cmd < "$__sb_dir/cmd"
  [[ -n $__sb_cmd && $__sb_cmd != [[:space:]]* ]] && history -s -- "$__sb_cmd"
  return 0
}
__sb_post() {
  __sb_status=$?
  [[ ${PROMPT_COMMAND[0]} == __sb_prompt ]] || PROMPT_COMMAND=(__sb_prompt "${PROMPT_COMMAND[@]}")
  __sb_emit
}
__sb_hidden() {
  __sb_seq=$1
  shift
  "$@" > "$__sb_dir/hidden" 2>/dev/null
  __sb_emit
}
__sb_env() { env -0; }
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
  if ! complete -p -- "$cmd" >/dev/null 2>&1; then
    if [[ -z $__sb_bc_loaded && -r /usr/share/bash-completion/bash_completion ]]; then
      __sb_bc_loaded=1
      . /usr/share/bash-completion/bash_completion >/dev/null 2>&1
    fi
    declare -F _completion_loader >/dev/null && _completion_loader "$cmd" >/dev/null 2>&1
  fi
  local spec
  spec=$(complete -p -- "$cmd" 2>/dev/null)
  if [[ $spec =~ -F[[:space:]]+([^[:space:]]+) ]]; then
    local func=${BASH_REMATCH[1]}
    COMP_WORDS=("${words[@]}") COMP_CWORD=$cword COMP_LINE=$line COMP_POINT=${#line}
    COMP_TYPE=9 COMP_KEY=9
    COMPREPLY=()
    "$func" "$cmd" "$cur" "${words[cword-1]}" >/dev/null 2>&1
    printf '%s\n' "${COMPREPLY[@]}"
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
__sb_user_pc=("${PROMPT_COMMAND[@]}")
PROMPT_COMMAND=(__sb_prompt)
for __sb_x in "${__sb_user_pc[@]}"; do
  [[ $__sb_x == __sb_prompt ]] || PROMPT_COMMAND+=("$__sb_x")
done
unset __sb_x __sb_user_pc
PS1='' PS2='' PS0=''
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
