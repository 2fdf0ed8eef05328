"""The completion helper of the session's bash (part of the rcfile, see bashinit.py).

Bash's programmable completion needs readline's completion machinery, which the session's bash
(``--noediting``) never runs, so ``__sb_complete`` does in shell what bash does there: it finds
the compspec the way bash does (``-E`` on an empty line, ``-I`` for the command word, the
command's own — full name, then basename —, else ``-D``), generates the matches in bash's order
(actions, ``-G``, ``-W`` through ``compgen``; ``-F`` with ``COMP_WORDS``/``COMP_CWORD``/
``COMP_LINE``/``COMP_POINT``/``COMP_TYPE`` set; ``-C`` with them exported), applies ``-X``,
``-P``/``-S``, ``-o dirnames``/``plusdirs``, retries when a function returns 124 having loaded a
new compspec, and falls back to bash's default completion for ``-o bashdefault`` and to files
for ``-o default``. ``compopt`` called inside the function changes this completion's options,
as in bash. Without a compspec it completes as bash does: commands (then directories) for the
command word, ``$VAR``/``${VAR}``, ``~user``, files. Readline's own settings (e.g.
``completion-ignore-case`` from an inputrc) apply, since ``compgen`` runs in the same bash.

Input (NUL-separated, in a private file): the index of the word being completed, COMP_TYPE,
the line up to the cursor, that word unquoted, then every word as typed (COMP_WORDS). Output
(NUL-separated): ``o`` followed by the options in effect (``filenames`` when readline would
treat the matches as file names), then one match a record, its kind first: ``d`` directory,
``l`` symbolic link to a directory, ``f`` other file, ``v`` variable (``u``: one whose value
is a directory), ``t`` ``~user``, ``w`` any other word — sorted and without duplicates unless
``nosort`` (in the C locale swebash sorts: option ``bytes``). Quoting, the common prefix and the
listing are readline's part: swebash/shell/completion.py and interactive/tabcomplete.py.
Nothing typed is ever evaluated (``~/…`` and ``$NAME/…`` complete on their value).
"""

from __future__ import annotations

from swebash.shell.bashreadline import READLINE

COMPLETION = r"""
# Programmable completion: bash-completion's loader when installed, otherwise the command's own
# completion file (git ships one even where bash-completion is absent).
__sb_load_completion() {
  builtin local "cmd=$1" dir name
  # SWEBASH_BASH_COMPLETION names another bash_completion script ("" for none: tests)
  builtin local "bc=${SWEBASH_BASH_COMPLETION-/usr/share/bash-completion/bash_completion}"
  if [[ -z $__sb_bc_loaded && -n $bc && -r $bc ]]; then
    __sb_bc_loaded=1
    . "$bc" >/dev/null 2>&1
    # its _filedir quotes the word for compgen counting on readline's dequoting, which only
    # happens inside readline's own completion: quote it so compgen reads it right here
    if builtin declare -F _quote_readline_by_ref >/dev/null; then
      _quote_readline_by_ref() { __sb_quote_for_compgen "$@"; }
    fi
  fi
  if builtin declare -F _completion_loader >/dev/null; then
    builtin return 0  # bash-completion's -D compspec loads the command's completion
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
# $1 (a word as typed) unquoted, then quoted for compgen, into the variable named $2
__sb_quote_for_compgen() {
  builtin local "w=$1" c out= q= i
  case $w in
    \'*) w=${w:1}; builtin printf -v "$2" %q "${w%\'}"; builtin return 0 ;;
    \"*) w=${w:1}; w=${w%\"}; q=1 ;;
  esac
  for (( i = 0; i < ${#w}; i++ )); do
    c=${w:i:1}
    if [[ $c == '\' ]] && (( i + 1 < ${#w} )) && [[ -z $q || ${w:i+1:1} == [\"\\\$\`] ]]; then
      (( i += 1 ))
      c=${w:i:1}
    fi
    out+=$c
  done
  if [[ $out == \~* ]]; then builtin printf -v "$2" '~%q' "${out:1}"
  else builtin printf -v "$2" %q "$out"; fi
  [[ ${!2} == \$* ]] && builtin eval "$2=${!2}"
  builtin return 0
}
# compopt inside a completion function changes the options of this completion (the builtin only
# works inside readline's completion); with names or -D/-E/-I it changes stored compspecs.
__sb_compopt() {
  builtin local -a all
  all=("$@")
  while (( $# )); do
    case $1 in
      -o) [[ $__sb_copts == *" ${2-} "* ]] || __sb_copts+="${2-} "; builtin shift 2 ;;
      +o) __sb_copts=${__sb_copts/" ${2-} "/" "}; builtin shift 2 ;;
      --) builtin shift; builtin break ;;
      *) builtin break ;;
    esac
  done
  (( $# == 0 )) || builtin compopt "${all[@]}"
}
# The compspec for command $1 (full name, basename, then -D) into $spec; status 1: none
__sb_spec_of() {
  spec=
  builtin complete -p -- "$1" >| "$__sb_dir/cspec" 2>/dev/null \
    || { [[ $1 == */?* ]] && builtin complete -p -- "${1##*/}" >| "$__sb_dir/cspec" 2>/dev/null; } \
    || builtin complete -p -D >| "$__sb_dir/cspec" 2>/dev/null || builtin return 1
  IFS= builtin read -r spec < "$__sb_dir/cspec"
}
# Run the compspec in $spec (a `complete -p` line) for the caller's word, adding to $matches;
# status 124 when its function asks for a retry.
__sb_run_spec() {
  builtin local -a sw acts got kept
  builtin local a m i=1 n func= ccmd= filt= pre= suf= st neg=0 pat= c k
  builtin eval "sw=($spec)" 2>/dev/null || builtin return 1
  n=$(( ${#sw[@]} - 1 ))  # the last word is the command name (or -D, -E, -I)
  while (( i < n )); do
    a=${sw[i]}
    case $a in
      -o) __sb_copts+="${sw[i+1]} " ;;
      -A) acts+=(-A "${sw[i+1]}")
          [[ ${sw[i+1]} == file || ${sw[i+1]} == directory ]] && fname=1 ;;
      -G) acts+=(-G "${sw[i+1]}"); fname=1 ;;
      -W) acts+=(-W "${sw[i+1]}") ;;
      -F) func=${sw[i+1]} ;;
      -C) ccmd=${sw[i+1]} ;;
      -X) filt=${sw[i+1]} ;;
      -P) pre=${sw[i+1]} ;;
      -S) suf=${sw[i+1]} ;;
      -[fd]) acts+=("$a"); fname=1; (( i += 1 )); builtin continue ;;
      -[abcegjksuv]) acts+=("$a"); (( i += 1 )); builtin continue ;;
      *) (( i += 1 )); builtin continue ;;
    esac
    (( i += 2 ))
  done
  if (( ${#acts[@]} )); then
    builtin compgen "${acts[@]}" -- "$cur" >| "$__sb_dir/cgen" 2>/dev/null
    builtin mapfile -t got < "$__sb_dir/cgen"
    matches+=("${got[@]}")
  fi
  if [[ -n $func ]]; then
    builtin local "COMP_LINE=$line" "COMP_POINT=${#line}" "COMP_TYPE=$ctype" COMP_KEY=9 \
      "COMP_CWORD=$cword"
    builtin local -a COMP_WORDS COMPREPLY
    COMP_WORDS=("${words[@]}") COMPREPLY=()
    compopt() { __sb_compopt "$@"; }
    "$func" "$cmd" "$cur" "$prev" >/dev/null 2>&1
    st=$?
    builtin unset -f compopt
    (( st == 124 )) && builtin return 124
    matches+=("${COMPREPLY[@]}")
  fi
  if [[ -n $ccmd ]]; then
    ( builtin export COMP_LINE="$line" COMP_POINT="${#line}" COMP_TYPE="$ctype" COMP_KEY=9
      builtin set -- "$cmd" "$cur" "$prev"
      builtin eval -- "$ccmd"' "$@"' ) >| "$__sb_dir/cgen" 2>/dev/null
    builtin mapfile -t got < "$__sb_dir/cgen"
    matches+=("${got[@]}")
  fi
  if [[ -n $filt ]]; then  # -X: & is the word, \& a literal &, a leading ! keeps the matches
    [[ $filt == '!'* ]] && neg=1 filt=${filt:1}
    for (( k = 0; k < ${#filt}; k++ )); do
      c=${filt:k:1}
      if [[ $c == '\' && ${filt:k+1:1} == '&' ]]; then pat+='&'; (( k += 1 ))
      elif [[ $c == '&' ]]; then pat+=$cur
      else pat+=$c; fi
    done
    for m in "${matches[@]}"; do
      if [[ $m == $pat ]]; then (( neg )) && kept+=("$m"); else (( neg )) || kept+=("$m"); fi
    done
    matches=("${kept[@]}")
  fi
  if [[ -n $pre$suf ]]; then
    kept=()
    for m in "${matches[@]}"; do kept+=("$pre$m$suf"); done
    matches=("${kept[@]}")
  fi
  if (( ${#matches[@]} == 0 )) && [[ $__sb_copts == *" dirnames "* ]]; then
    builtin compgen -d -- "$cur" >| "$__sb_dir/cgen" 2>/dev/null
    builtin mapfile -t matches < "$__sb_dir/cgen"
    fname=1
  elif [[ $__sb_copts == *" plusdirs "* ]]; then
    builtin compgen -d -- "$cur" >| "$__sb_dir/cgen" 2>/dev/null
    builtin mapfile -t got < "$__sb_dir/cgen"
    (( ${#got[@]} )) && fname=1
    matches+=("${got[@]}")
  fi
  builtin return 0
}
# Bash's default completion of a word: commands for the command word, $VAR and ${VAR}, ~user
__sb_default_words() {
  builtin local w
  # variables: kind u when the value names a directory (readline then appends "/")
  if [[ $cur == \$\{* ]]; then
    builtin compgen -v -- "${cur#\$\{}" >| "$__sb_dir/cgen" 2>/dev/null
    while IFS= builtin read -r w; do
      [[ $w == __sb_* ]] && builtin continue
      [[ -d ${!w-} ]] && kinds+=(u) || kinds+=(v)
      matches+=("\${$w}")
    done < "$__sb_dir/cgen"
  elif [[ $cur == \$* && $cur != */* ]]; then
    builtin compgen -v -- "${cur#\$}" >| "$__sb_dir/cgen" 2>/dev/null
    while IFS= builtin read -r w; do
      [[ $w == __sb_* ]] && builtin continue
      [[ -d ${!w-} ]] && kinds+=(u) || kinds+=(v)
      matches+=("\$$w")
    done < "$__sb_dir/cgen"
  elif [[ $cur == \~* && $cur != */* ]]; then
    builtin compgen -u -- "${cur#\~}" >| "$__sb_dir/cgen" 2>/dev/null
    while IFS= builtin read -r w; do kinds+=(t); matches+=("~$w"); done < "$__sb_dir/cgen"
  elif (( cword == 0 )) && [[ $cur != */* ]]; then
    builtin compgen -A alias -A function -A builtin -A keyword -A command -- "$cur" \
      >| "$__sb_dir/cgen" 2>/dev/null
    while IFS= builtin read -r w; do
      [[ $w == __sb_* ]] || matches+=("$w")
    done < "$__sb_dir/cgen"
    if (( ${#matches[@]} == 0 )); then  # then directories, as bash
      builtin compgen -d -- "$cur" >| "$__sb_dir/cgen" 2>/dev/null
      builtin mapfile -t matches < "$__sb_dir/cgen"
      fname=1
    fi
  fi
}
# Readline's default: file names. ~/… and $VAR/… (a plain variable name only: nothing typed is
# ever evaluated) complete on their value, and come back with the head the user typed.
__sb_default_files() {
  builtin local f "head=" "value="
  if [[ $cur == \~/* ]]; then
    head=\~ value=$HOME
  elif [[ $cur == \$*/* && ${cur%%/*} =~ ^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$ ]]; then
    head=${cur%%/*} value=${!BASH_REMATCH[1]-}
  fi
  builtin compgen -f -- "${cur/#"$head"/$value}" >| "$__sb_dir/cgen" 2>/dev/null
  while IFS= builtin read -r f; do
    [[ -n $head ]] && f=$head${f#"$value"}
    matches+=("$f")
  done < "$__sb_dir/cgen"
  fname=1
}
# FIGNORE's suffixes take names out of a file-name completion, as readline's does (all of them
# too with shopt force_fignore, bash's default)
__sb_fignore() {
  builtin local -a sfx kept
  builtin local m s
  sfx=() kept=()
  IFS=: builtin read -r -a sfx <<< "$FIGNORE"
  for m in "${matches[@]}"; do
    for s in "${sfx[@]}"; do
      [[ -n $s && ${#m} -gt ${#s} && $m == *"$s" ]] && builtin continue 2
    done
    kept+=("$m")
  done
  (( ${#kept[@]} )) || builtin shopt -q force_fignore || builtin return 0
  matches=("${kept[@]}")
}
# after an interrupted completion (Ctrl-C): compopt is the builtin again
__sb_complete_reset() {
  [[ -n ${__sb_copts+set} ]] && builtin unset -f compopt
  builtin unset __sb_copts
  builtin return 0
}
__sb_complete() {
  __sb_complete_reset
  builtin local -a words matches kinds
  matches=() kinds=()
  builtin mapfile -d '' -t words < "$__sb_dir/cline"
  : >| "$__sb_dir/cline"
  builtin local "cword=${words[0]-0}" "ctype=${words[1]-9}" "line=${words[2]-}" \
    "cur=${words[3]-}"
  words=("${words[@]:4}")
  builtin local "cmd=${words[0]-}" prev= spec= old= fname=0 tries=0 m k p
  (( cword > 0 )) && prev=${words[cword-1]}
  __sb_copts=" "
  if (( cword == 0 )); then
    if [[ $line != *[![:space:]]* ]] && builtin complete -p -E >| "$__sb_dir/cspec" 2>/dev/null
    then IFS= builtin read -r spec < "$__sb_dir/cspec"
    elif builtin complete -p -I >| "$__sb_dir/cspec" 2>/dev/null
    then IFS= builtin read -r spec < "$__sb_dir/cspec"
    fi
  else
    builtin complete -p -- "$cmd" >/dev/null 2>&1 || __sb_load_completion "$cmd"
    __sb_spec_of "$cmd"
  fi
  while [[ -n $spec ]] && (( tries++ < 8 )); do
    __sb_copts=" " fname=0 matches=()
    __sb_run_spec && builtin break
    old=$spec  # 124: the function loaded a compspec; use it unless nothing changed
    __sb_spec_of "$cmd" && [[ $spec != "$old" ]] || { spec=$old; builtin break; }
  done
  if [[ -n $spec ]]; then
    if (( ${#matches[@]} == 0 )) && [[ $__sb_copts == *" bashdefault "* ]]; then
      __sb_default_words
    fi
    if (( ${#matches[@]} == 0 )) && [[ $__sb_copts == *" default "* ]]; then
      __sb_default_files
    fi
  else
    __sb_default_words
    if (( ${#matches[@]} == 0 )) && [[ $cword != 0 || $cur == */* ]]; then
      __sb_default_files
    fi
  fi
  [[ $__sb_copts == *" filenames "* ]] && fname=1
  (( fname )) && [[ $__sb_copts != *" filenames "* ]] && __sb_copts+="filenames "
  (( fname )) && [[ -n ${FIGNORE-} ]] && __sb_fignore
  # readline sorts in the locale's order (strcoll); in the C locale that is the bytes' order,
  # which swebash does without a sort process ("bytes")
  p=${LC_ALL:-${LC_COLLATE:-${LANG-}}}
  if [[ -z $p || $p == C || $p == C.* || $p == POSIX ]]; then __sb_copts+="bytes "
  elif (( ${#matches[@]} > 1 && ${#kinds[@]} == 0 )) && [[ $__sb_copts != *" nosort "* ]]; then
    builtin printf '%s\0' "${matches[@]}" >| "$__sb_dir/cgen"
    command sort -z -u "$__sb_dir/cgen" >| "$__sb_dir/csort" 2>/dev/null \
      && builtin mapfile -d '' -t matches < "$__sb_dir/csort"
  fi
  builtin printf 'o%s\0' "$__sb_copts"
  for (( k = 0; k < ${#matches[@]}; k++ )); do
    m=${matches[k]}
    if (( fname )); then
      p=$m
      [[ $p == \~/* ]] && p=$HOME${p:1}
      if [[ ! -d $p ]]; then builtin printf 'f%s\0' "$m"
      elif [[ -L ${p%/} ]]; then builtin printf 'l%s\0' "$m"
      else builtin printf 'd%s\0' "$m"; fi
    else
      builtin printf '%s%s\0' "${kinds[k]-w}" "$m"
    fi
  done
  : >| "$__sb_dir/cgen"
  builtin unset __sb_copts
}
"""

COMPLETE = COMPLETION + READLINE
