# Sourced by the tools: create .venv once, and reinstall the project only when
# pyproject.toml changed since the last install (a stamp file records its hash). After an
# install with the fast extra, the numba kernels are compiled into numba's on-disk cache
# (python -m machine.gamemath.precompile), so later commands load them instead of compiling
# them in front of the user. ensure_venv EXTRAS [KERNELS]: KERNELS "all" (the default: every
# kernel now, two processes at a time, as the test suite needs them) or "cabinet" (tools/run:
# only what the cabinet needs before its window, the exact analysis behind Auto's tables, a few
# seconds; the fast simulators then compile in the background at low priority, and a command
# that needs one sooner compiles it itself, saying so).
ensure_venv() {
    local extras="$1"
    local kernels="${2:-all}"
    local py="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        echo "Creating .venv (first run) ..." >&2
        "$py" -m venv .venv
    fi
    local want have=""
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)-$extras"
    [ -f .venv/.installed ] && have="$(cat .venv/.installed)"
    if [ "$want" != "$have" ]; then
        echo "Installing the project into .venv ..." >&2
        if ! { .venv/bin/python -m pip install --upgrade pip &&
               install_project "$extras"; } > .venv/pip.log 2>&1; then
            cat .venv/pip.log >&2
            echo "tools: installing into .venv failed (log above, also in .venv/pip.log)" >&2
            return 1
        fi
        echo "$want" > .venv/.installed
        case ",$extras," in
            *,fast,*) precompile_kernels "$kernels" ;;
        esac
    fi
}

# The project into .venv, editable, in setuptools' "compat" mode: a .pth line naming the checkout,
# where its default mode installs an import hook whose module every Python start imports, with
# pathlib and the rest (python -c pass 21 -> 9 ms; every cabinet command, and every process the
# tests start, about 2 ms). setuptools calls compat transitional: where it refuses it, its default.
install_project() {
    .venv/bin/python -m pip install -e ".[$1]" --config-settings editable_mode=compat || {
        echo "tools: setuptools refused editable_mode=compat (above): its default editable mode instead"
        .venv/bin/python -m pip install -e ".[$1]"
    }
}

# The set-up's compile (see ensure_venv); a failure is not fatal: the kernels compile on first use.
precompile_kernels() {
    local args=(--jobs 2) what="the exact analysis and the fast simulators, two at a time"
    if [ "$1" = cabinet ]; then
        args=(--cabinet) what="what the cabinet needs first: the exact analysis behind Auto's tables"
    fi
    echo "Compiling the numba kernels ($what; once; log: .venv/precompile.log) ..." >&2
    if ! .venv/bin/python -m machine.gamemath.precompile "${args[@]}" > .venv/precompile.log 2>&1; then
        cat .venv/precompile.log >&2
        echo "tools: compiling the kernels failed (above): they compile on first use instead" >&2
    fi
    if [ "$1" = cabinet ]; then
        echo "The fast simulators' kernels compile in the background (log: .venv/precompile-rest.log)" >&2
        nohup nice -n 15 .venv/bin/python -m machine.gamemath.precompile --rest \
            > .venv/precompile-rest.log 2>&1 < /dev/null &
    fi
}
