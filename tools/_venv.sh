# Sourced by the tools: create .venv once, and reinstall the project only when
# pyproject.toml changed since the last install (a stamp file records its hash). After an
# install with the fast extra, the numba kernels (the exact analysis and the fast paths) are
# compiled into numba's on-disk cache (python -m machine.gamemath.precompile, a minute or two,
# once), so the first cabinet start or `cabinet simulate --fast` loads them instead of
# compiling them in front of the user.
ensure_venv() {
    local extras="$1"
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
               .venv/bin/python -m pip install -e ".[$extras]"; } > .venv/pip.log 2>&1; then
            cat .venv/pip.log >&2
            echo "tools: installing into .venv failed (log above, also in .venv/pip.log)" >&2
            return 1
        fi
        echo "$want" > .venv/.installed
        case ",$extras," in
            *,fast,*)
                echo "Compiling the numba kernels (the exact analysis and the fast simulators; once; log: .venv/precompile.log) ..." >&2
                if ! .venv/bin/python -m machine.gamemath.precompile > .venv/precompile.log 2>&1; then
                    cat .venv/precompile.log >&2
                    echo "tools: compiling the kernels failed (above): they compile on first use instead" >&2
                fi ;;
        esac
    fi
}
