# loom.bash -- bash completion for loom: commands, each command's options (read from
# `loom help COMMAND`, so they are always the installed program's), presets after
# --device, SIMT policies after --simt, scheduling policies after --sched, a .ptx file's kernels after --kernel, .json files
# after --trace, .ptx files, folders and programs.
_loom()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]:-}
    local loom=${COMP_WORDS[0]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "check info run exec debug dap help --help --version" -- "$cur"))
        return
    fi
    case $prev in
    --device)
        COMPREPLY=($(compgen -W "$("$loom" info --presets 2>/dev/null | awk 'NR > 1 { print $1, $2 }')" -- "$cur"))
        return ;;
    --dump-ptx)
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    --log)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    --batch)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    -ex)
        return ;;
    --trace)
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -S / -- "$cur"))
        compopt -o nospace 2>/dev/null
        return ;;
    --simt)
        COMPREPLY=($(compgen -W "pdom its frontier dwf sbi swi sbi+swi" -- "$cur"))
        return ;;
    --sched)
        COMPREPLY=($(compgen -W "fifo serial acs acs:window=32 dag" -- "$cur"))
        return ;;
    --timing)
        COMPREPLY=($(compgen -W "wall model" -- "$cur"))
        return ;;
    --kernel)
        local w ptx=
        for w in "${COMP_WORDS[@]}"; do
            case $w in *.ptx) ptx=$w ;; esac
        done
        [ -f "$ptx" ] && COMPREPLY=($(compgen -W "$(sed -n 's/^[[:space:]]*\(\.visible[[:space:]]\+\)\{0,1\}\.entry[[:space:]]\+\([A-Za-z0-9_$.]*\).*/\2/p' "$ptx")" -- "$cur"))
        return ;;
    --grid|--block|--shared|--workers|--timeout|--watchdog|--trace-cap)
        return ;;
    esac
    if [ "$cmd" = help ]; then
        COMPREPLY=($(compgen -W "check info run exec debug dap" -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$loom" help "$cmd" 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
        return
    fi
    case $cmd in
    run|check|debug)
        COMPREPLY=($(compgen -f -X '!*.ptx' -- "$cur") $(compgen -d -S / -- "$cur"))
        compopt -o nospace 2>/dev/null ;;
    exec)
        COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur")) ;;
    esac
}
complete -F _loom loom
