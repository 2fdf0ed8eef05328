# bash completion for swebash            (source it, or copy to ~/.local/share/bash-completion/completions/swebash)
_swebash() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    if [[ ${COMP_WORDS[1]} == policy ]]; then
        case $COMP_CWORD in
            2) COMPREPLY=($(compgen -W "check check-path" -- "$cur")) ;;
            *) if [[ ${COMP_WORDS[2]} == check-path ]]; then
                   COMPREPLY=($(compgen -W "--write --json" -- "$cur") $(compgen -f -- "$cur"))
               else
                   COMPREPLY=($(compgen -W "--json --" -- "$cur"))
               fi ;;
        esac
        return
    fi
    if [[ $prev == -c ]]; then
        COMPREPLY=($(compgen -c -- "$cur"))
        return
    fi
    if [[ $prev == [-+]o ]]; then
        COMPREPLY=($(compgen -A setopt -- "$cur"))
        return
    fi
    if [[ $prev == [-+]O ]]; then
        COMPREPLY=($(compgen -A shopt -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "-c -l --login --norc --noprofile --rcfile --posix -o -O -i -s -x -e --yes --yes-dangerous --continue --install-shell --version --help" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -W "policy" -- "$cur") $(compgen -f -- "$cur"))
}
complete -o filenames -F _swebash swebash
