// Shell completion scripts; activity ids come from the running broker.
enum Completions {
    static let bash = #"""
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
        """#

    static let zsh = #"""
        #compdef share
        # zsh completion for share — source it: eval "$(share --completions zsh)"
        _share() {
            local -a subcommands
            subcommands=(list activities explain check browse open sheet attributions help)
            case "$words[CURRENT-1]" in
                --activity|explain)
                    local -a ids
                    ids=(${(f)"$(share __complete-ids 2>/dev/null)"})
                    compadd -a ids
                    return ;;
                --completions)
                    compadd bash zsh
                    return ;;
                help)
                    compadd share $subcommands
                    return ;;
                --extensions-dir)
                    _files -/
                    return ;;
            esac
            if (( CURRENT == 2 )); then
                compadd -a subcommands
                compadd -- --help --version --completions
            elif [[ "$words[2]" == check ]]; then
                _files -g '*.json'
            else
                compadd -- --activity --title --text --json --clear --locale --extensions-dir --bus --help
            fi
        }
        if [ "$funcstack[1]" = "_share" ]; then _share "$@"; else compdef _share share; fi
        """#
}
