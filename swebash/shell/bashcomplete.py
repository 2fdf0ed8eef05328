"""The completion helper of the session's bash (part of the rcfile, see bashinit.py).

``__sb_complete`` gets, in a private file, the index of the word being completed, the line,
that word unquoted, and every word as typed (what bash gives compspecs in COMP_WORDS). It
prints one candidate per line, each prefixed with its kind: ``d`` a directory, ``f`` a file,
``v`` a variable (``$NAME`` or ``${NAME}``), ``w`` any other word; swebash quotes them the way
readline would (swebash/shell/completion.py). Programmable completion comes from
bash-completion when installed (``SWEBASH_BASH_COMPLETION`` names another script, empty for
none) or the command's own completion file; when a compspec gives nothing, files are offered.
``~/…`` and ``$NAME/…`` complete on their value and come back as typed; nothing typed is
ever evaluated.
"""

from __future__ import annotations

COMPLETE = r"""
# Programmable completion: bash-completion's loader when installed, otherwise the command's own
# completion file (git ships one even where bash-completion is absent).
__sb_load_completion() {
  builtin local "cmd=$1" dir name
  # SWEBASH_BASH_COMPLETION names another bash_completion script ("" for none: tests)
  builtin local "bc=${SWEBASH_BASH_COMPLETION-/usr/share/bash-completion/bash_completion}"
  if [[ -z $__sb_bc_loaded && -n $bc && -r $bc ]]; then
    __sb_bc_loaded=1
    . "$bc" >/dev/null 2>&1
  fi
  if builtin declare -F _completion_loader >/dev/null; then
    _completion_loader "$cmd" >/dev/null 2>&1
    builtin return 0
  fi
  [[ $cmd == */* || -z $cmd ]] && builtin return 0
  builtin local -a dirs
  IFS=: builtin read -r -a dirs <<< "${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
  dirs=("${BASH_COMPLETION_USER_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion}"
        "${dirs[@]/%//bash-completion}")
  for dir in "${dirs[@]}"; do
    for name in "$cmd" "$cmd.bash" "_$cmd"; do
      if [[ -r $dir/completions/$name ]]; then
        . "$dir/completions/$name" >/dev/null 2>&1
        builtin return 0
      fi
    done
  done
}
# Input (NUL-separated, in a private file): the index of the word being completed, the line,
# then the words already unquoted by swebash.
# Prints candidates one per line; "d" before a name that is a directory, "f" for a file,
# "w" for other words (so swebash can quote and add "/" the way readline does).
__sb_complete() {
  builtin local -a words
  builtin mapfile -d '' -t words < "$__sb_dir/cline"
  : > "$__sb_dir/cline"
  # words as typed (what bash gives compspecs), and the word under the cursor unquoted
  builtin local "cword=${words[0]-0}" "line=${words[1]-}" "cur=${words[2]-}"
  words=("${words[@]:3}")
  builtin local "cmd=${words[0]-}" "rawcur=${words[cword]-}"
  if (( cword == 0 )); then
    builtin compgen -A alias -A function -A builtin -A keyword -A command -- "$cur" \
      | command sort -u | while IFS= builtin read -r w; do
          [[ $w == __sb_* ]] || builtin printf 'w%s\n' "$w"
        done
    builtin return 0
  fi
  if [[ $cur == \$\{* ]]; then
    builtin compgen -v -- "${cur#\$\{}" | while IFS= builtin read -r w; do
      [[ $w == __sb_* ]] || builtin printf 'v${%s}\n' "$w"; done
    builtin return 0
  fi
  if [[ $cur == \$* && $cur != */* ]]; then
    builtin compgen -v -- "${cur#\$}" | while IFS= builtin read -r w; do
      [[ $w == __sb_* ]] || builtin printf 'v$%s\n' "$w"; done
    builtin return 0
  fi
  builtin complete -p -- "$cmd" >/dev/null 2>&1 || __sb_load_completion "$cmd"
  builtin local spec
  spec=$(builtin complete -p -- "$cmd" 2>/dev/null)
  if [[ $spec =~ -F[[:space:]]+([^[:space:]]+) ]]; then
    builtin local "func=${BASH_REMATCH[1]}"
    COMP_WORDS=("${words[@]}") COMP_CWORD=$cword COMP_LINE=$line COMP_POINT=${#line}
    COMP_TYPE=9 COMP_KEY=9
    COMPREPLY=()
    "$func" "$cmd" "$rawcur" "${words[cword-1]}" >/dev/null 2>&1
    builtin local reply
    # compopt -o filenames inside the function is invisible from here: a reply that names an
    # existing file is taken as one (quoted, "/" after a directory), as readline would
    for reply in "${COMPREPLY[@]}"; do
      if [[ $reply == *' ' ]]; then builtin printf 'w%s\n' "${reply% }"
      elif [[ -d ${reply/#\~/$HOME} ]]; then builtin printf 'd%s\n' "$reply"
      elif [[ -e ${reply/#\~/$HOME} ]]; then builtin printf 'f%s\n' "$reply"
      else builtin printf 'w%s\n' "$reply"; fi
    done
    (( ${#COMPREPLY[@]} )) && builtin return 0  # else files, as -o default would
  fi
  # ~/… and $VAR/… (a plain variable name only: nothing typed is ever evaluated) complete
  # on their value, and come back with the head the user typed
  builtin local f "head=" "value="
  if [[ $cur == \~/* ]]; then
    head=\~ value=$HOME
  elif [[ $cur == \$*/* && ${cur%%/*} =~ ^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$ ]]; then
    head=${cur%%/*} value=${!BASH_REMATCH[1]-}
  fi
  while IFS= builtin read -r f; do
    [[ -n $head ]] && f=$head${f#"$value"}
    if [[ -d ${f/#"$head"/$value} ]]; then builtin printf 'd%s\n' "$f"
    else builtin printf 'f%s\n' "$f"; fi
  done < <(builtin compgen -f -- "${cur/#"$head"/$value}")
}
"""
