// Shell completion scripts; activity ids come from the running broker (the one of a `--bus` given on the line).
enum Completions {
    /// The commands, `share URL`'s own options and each other command's, from the parser's table
    /// (`ShareArguments.commandOptions`), so the scripts offer what the command takes and no more.
    private static var subcommands: [String] {
        ShareArguments.commandOptions.map(\.command).filter { $0 != "share" }
    }
    private static var helpTopics: String {
        ShareArguments.commandOptions.map(\.command).joined(separator: " ")
    }
    private static var valuedPattern: String { ShareArguments.valuedOptions.joined(separator: "|") }
    private static var common: String { ShareArguments.commonOptions.joined(separator: " ") }
    private static func own(_ command: String) -> String {
        ShareArguments.ownOptions(of: command).joined(separator: " ")
    }

    /// bash splits the line at COMP_WORDBREAKS, so `--bus=unix:path=/x` arrives as the words
    /// `--bus = unix : path = /x`: the scanner skips an `=` after an option and glues `:` and
    /// `=` words back onto the value they split, to find the command and the bus address.
    static var bash: String {
        let optionCases = subcommands.map { "        \($0)) own=\"\(own($0))\" ;;" }
            .joined(separator: "\n")
        return #"""
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
                        \#(valuedPattern))
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
                        COMPREPLY=($(compgen -W "\#(subcommands.joined(separator: " ")) --help --version --completions --bus" -- "$cur"))
                        return ;;
                    help)
                        if [ "$positionals" -eq 0 ] && [[ "$cur" != -* ]]; then
                            COMPREPLY=($(compgen -W "\#(helpTopics)" -- "$cur"))
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
            \#(optionCases)
                    *) own="\#(own("share"))" ;;
                esac
                COMPREPLY=($(compgen -W "$own \#(common)" -- "$cur"))
            }
            complete -F _share share
            """#
    }

    /// zsh keeps shell words whole (`--bus=ADDRESS` is one word, quotes included), so its scanner
    /// only splits `--NAME=VALUE` and unquotes. Its array of a command's options is `own`, not
    /// `options`: that name is zsh's special array of shell options.
    static var zsh: String {
        let optionCases = subcommands.map { "        (\($0)) own=(\(own($0))) ;;" }
            .joined(separator: "\n")
        return #"""
            #compdef share
            # zsh completion for share — source it: eval "$(share --completions zsh)"
            _share() {
                local -a subcommands bus own ids
                subcommands=(\#(subcommands.joined(separator: " ")))
                local command="" value_of="" word cur=$words[CURRENT]
                integer i=2 positionals=0
                while (( i < CURRENT )); do
                    word=$words[i]
                    (( i++ ))
                    case $word in
                        (\#(valuedPattern))
                            if (( i >= CURRENT )); then value_of=$word; break; fi
                            [[ $word == --bus ]] && bus=(--bus "${(Q)words[i]}")
                            (( i++ )) ;;
                        (--bus=*) bus=(--bus "${(Q)${word#--bus=}}") ;;
                        (-*) ;;
                        (*) if [[ -z $command ]]; then command=$word; else (( positionals++ )); fi ;;
                    esac
                done
                if [[ -z $value_of && $cur == (\#(valuedPattern))=* ]]; then
                    value_of=${cur%%=*}
                    compset -P '*='
                fi
                if [[ -n $value_of ]]; then
                    case $value_of in
                        (--activity)
                            ids=(${(f)"$(share "${bus[@]}" __complete-ids 2>/dev/null)"})
                            compadd -a ids ;;
                        (--completions) compadd bash zsh ;;
                        (--extensions-dir) _files -/ ;;
                    esac
                    return
                fi
                case $command in
                    ('')
                        compadd -a subcommands
                        compadd -- --help --version --completions --bus
                        return ;;
                    (help)
                        if (( positionals == 0 )) && [[ $cur != -* ]]; then
                            compadd \#(helpTopics)
                            return
                        fi ;;
                    (explain)
                        if (( positionals == 0 )) && [[ $cur != -* ]]; then
                            ids=(${(f)"$(share "${bus[@]}" __complete-ids 2>/dev/null)"})
                            compadd -a ids
                            return
                        fi ;;
                    (check)
                        if [[ $cur != -* ]]; then
                            _files -g '*.json'
                            return
                        fi ;;
                esac
                case $command in
            \#(optionCases)
                    (*) own=(\#(own("share"))) ;;
                esac
                compadd -- $own \#(common)
            }
            if [ "$funcstack[1]" = "_share" ]; then _share "$@"; else compdef _share share; fi
            """#
    }
}
