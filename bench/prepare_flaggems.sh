#!/usr/bin/env bash
# Prepares, on this (networked) machine, what bench/flaggems_compare.sh needs on the device:
#   third_party_fetched/FlagGems  FlagGems' src/ and benchmark/ at the pinned commit (git-ignored;
#                                 nothing of FlagGems is committed)
#   .whl/                         sqlalchemy, which FlagGems imports and the device image lacks
# Both are git-ignored; name them in the device call's `carry`. Safe to run again.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
commit=${FLAGGEMS_COMMIT:-ed2508bcb5a03000e9774734201d840ba362cd11}
# A local clone or mirror of https://github.com/flagos-ai/FlagGems (a bare mirror is fine).
source_repo=${FLAGGEMS_GIT:-/work/.mirror/flagos-ai+FlagGems/repo}
sqlalchemy=${SQLALCHEMY_VERSION:-2.0.48}  # FlagGems' pyproject pins this version
device_python=${DEVICE_PYTHON_VERSION:-3.12}
dest=$here/third_party_fetched/FlagGems

if [ ! -d "$source_repo" ]; then
  echo "prepare_flaggems: no FlagGems repository at $source_repo (set FLAGGEMS_GIT)" >&2
  exit 2
fi
rm -rf "$dest"
mkdir -p "$dest"
# Only what imports and benchmarks need: the device call carries at most 64 MiB.
git --git-dir="$(git -C "$source_repo" rev-parse --absolute-git-dir)" archive "$commit" \
  src benchmark pytest.ini pyproject.toml | tar -x -C "$dest"
# An installed FlagGems gets _version.py from setuptools-scm; an archive has none, so its
# __version__ would read "unknown". Writing it names the commit in both harnesses' identity.
short=${commit:0:12}
printf 'version = "0+g%s"\ncommit_id = "g%s"\n' "$short" "$short" > "$dest/src/flag_gems/_version.py"
echo "$commit" > "$dest/COMMIT"

mkdir -p "$here/.whl"
rm -f "$here"/.whl/[Ss][Qq][Ll][Aa]lchemy-*.whl
"${PIP_PYTHON:-python3}" -m pip download -q --no-deps --only-binary=:all: \
  --python-version "$device_python" --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 -d "$here/.whl" "sqlalchemy==$sqlalchemy"
du -sh "$dest" "$here/.whl"
