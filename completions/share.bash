# bash completion for share — source it: eval "$(share --completions bash)"
_share_glues() {
    case "$2" in :|=) return 0 ;; esac
    case "$1" in *:|*=) return 0 ;; esac
    return 1
}
_share_dequote() {
    case "$1" in
        \'*\'|\"*\") printf '%s' "${1:1:${#1}-2}" ;;
        *) printf '%s' "$1" ;;
    esac
}
_share() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    local command="" positionals=0 value_of="" word value i=1
    local -a bus=()
    while [ "$i" -lt "$COMP_CWORD" ]; do
        word="${COMP_WORDS[i]}"
        i=$((i + 1))
        case "$word" in
            --title|--text|--activity|--locale|--bus|--completions|--extensions-dir)
                [ "${COMP_WORDS[i]}" = "=" ] && [ "$i" -lt "$COMP_CWORD" ] && i=$((i + 1))
                if [ "$i" -ge "$COMP_CWORD" ]; then value_of="$word"; break; fi
                value="${COMP_WORDS[i]}"
                i=$((i + 1))
                while [ "$i" -le "$COMP_CWORD" ] && _share_glues "$value" "${COMP_WORDS[i]}"; do
                    if [ "$i" -eq "$COMP_CWORD" ]; then value_of="$word"; break 2; fi
                    value="$value${COMP_WORDS[i]}"
                    i=$((i + 1))
                done
                if [ "$word" = --bus ]; then bus=(--bus "$(_share_dequote "$value")"); fi ;;
            -*) ;;
            *) if [ -z "$command" ]; then command="$word"; else positionals=$((positionals + 1)); fi ;;
        esac
    done
    if [ -n "$value_of" ]; then
        [ "$cur" = "=" ] && cur=""
        case "$value_of" in
            --activity)
                COMPREPLY=($(compgen -W "$(share "${bus[@]}" __complete-ids 2>/dev/null)" -- "$cur")) ;;
            --completions)
                COMPREPLY=($(compgen -W "bash zsh" -- "$cur")) ;;
            --extensions-dir)
                COMPREPLY=($(compgen -d -- "$cur")) ;;
        esac
        return
    fi
    local own
    case "$command" in
        "")
            COMPREPLY=($(compgen -W "list activities explain check browse open sheet attributions help --help --version --completions --bus" -- "$cur"))
            return ;;
        help)
            if [ "$positionals" -eq 0 ] && [[ "$cur" != -* ]]; then
                COMPREPLY=($(compgen -W "share list activities explain check browse open sheet attributions help" -- "$cur"))
                return
            fi ;;
        explain)
            if [ "$positionals" -eq 0 ] && [[ "$cur" != -* ]]; then
                COMPREPLY=($(compgen -W "$(share "${bus[@]}" __complete-ids 2>/dev/null)" -- "$cur"))
                return
            fi ;;
        check)
            if [[ "$cur" != -* ]]; then
                COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
                return
            fi ;;
    esac
    case "$command" in
        list) own="--title --json --locale" ;;
        activities) own="--json --locale --extensions-dir" ;;
        explain) own="--json" ;;
        check) own="" ;;
        browse) own="" ;;
        open) own="--json" ;;
        sheet) own="--title" ;;
        attributions) own="--json --clear" ;;
        help) own="" ;;
        *) own="--title --text --activity" ;;
    esac
    COMPREPLY=($(compgen -W "$own --bus --help" -- "$cur"))
}
complete -F _share share
