# bash completion for share — source it: eval "$(share --completions bash)"
_share() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --activity|explain)
            COMPREPLY=($(compgen -W "$(share __complete-ids 2>/dev/null)" -- "$cur"))
            return ;;
        --completions)
            COMPREPLY=($(compgen -W "bash zsh" -- "$cur"))
            return ;;
        help)
            COMPREPLY=($(compgen -W "share list activities explain check browse open sheet attributions help" -- "$cur"))
            return ;;
        --extensions-dir)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        --bus|--title|--text|--locale)
            return ;;
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "list activities explain check browse open sheet attributions help --help --version --completions" -- "$cur"))
    elif [ "${COMP_WORDS[1]}" = check ]; then
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -W "--activity --title --text --json --clear --locale --extensions-dir --bus --help" -- "$cur"))
    fi
}
complete -F _share share
