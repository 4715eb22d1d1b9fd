# Sourced by the tools: create .venv once, and reinstall the project only when
# pyproject.toml changed since the last install (a stamp file records its hash).
ensure_venv() {
    local extras="$1"
    local py="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        "$py" -m venv .venv
    fi
    local want have=""
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)-$extras"
    [ -f .venv/.installed ] && have="$(cat .venv/.installed)"
    if [ "$want" != "$have" ]; then
        .venv/bin/python -m pip install --quiet --upgrade pip
        .venv/bin/python -m pip install --quiet -e ".[$extras]"
        echo "$want" > .venv/.installed
    fi
}
