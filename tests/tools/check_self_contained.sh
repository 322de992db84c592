#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The repository stands on its own: no file points outside it, and the documents that the
# code cites exist.
#
#   tests/tools/check_self_contained.sh [repository root]
#
# Fails (exit 1, one line per finding) when a tracked file
#  - names a path outside the repository ("../shared", "shared/seeds", ...);
#  - cites the old design notes ("DESIGN.md") instead of docs/design.md;
#  - cites a paper as "the seed" ("seed Alg. 4", "seed Fig. 8", "seed 4.4", "(seed)",
#    "the seed's ...", a table column "ours / seed") instead of by author and year (docs/references.md). The word in its
#    random-number sense (std::mt19937 gen(seed), METIS_OPTION_SEED, "same seed") passes:
#    lines that also mention an RNG are skipped, and a plain variable or argument named
#    seed does not match any of the citation forms;
#  - cites "docs/design.md, rule N" for a rule that docs/design.md does not define;
#  - links (Markdown) to a relative path that does not exist.
# Outside a git checkout (an exported tree) every text file under the root is checked.
set -uo pipefail

root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || exit 2
self=tests/tools/check_self_contained.sh

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- . ":!$self" | while read -r f; do [[ -f $f ]] && echo "$f"; done)
else
  mapfile -t files < <(find . -path ./build -prune -o -path ./.git -prune -o -type f -print |
                         sed 's|^\./||' | grep -v -x -F "$self")
fi
if ((${#files[@]} == 0)); then
  echo "self-contained: no files found under $root"
  exit 2
fi

findings=$(mktemp)
trap 'rm -f "$findings"' EXIT
report() {  # rule, then "file:line:text" lines on stdin (may run in a pipeline's subshell)
  local rule=$1 line
  while IFS= read -r line; do
    echo "self-contained: $rule: $line" >>"$findings"
  done
}
# grep over the file list, text files only, with file names and line numbers.
search() { printf '%s\0' "${files[@]}" | xargs -0 grep -I -n -H "$@" -- 2>/dev/null; }

# 1. Paths outside the repository.
search -E -e '\.\./shared' -e 'shared/(seeds|DESIGN)' | report "path outside the repository"

# 2. The old design notes.
search -F -e 'DESIGN.md' | report "cites DESIGN.md (use docs/design.md, rule N)"

# 3. "seed" citations of a paper (case-insensitive), RNG lines excepted.
word='([^[:alnum:]_]|$)'
search -i -E \
  -e "seeds?('s)?[[:space:]]+(alg|algs|algorithm|algorithms|fig|figs|figure|figures|paper|papers|table|tables|section|sections|sec|book|method|mesh|meshes|version|ablation|[0-9]+)$word" \
  -e "(^|[^[:alnum:]_])\(seeds?([:,)]|'s|$)" \
  -e "/[[:space:]]*seeds?[[:space:]]*\|" \
  -e "the seeds?('s)?$word" \
  -e "seed's" \
  -e "seeds/" |
  grep -v -i -E 'rng|random|mt19937|minstd|generator|engine|srand|shuffle|METIS_OPTION_SEED' |
  report "cites a paper as 'the seed' (cite it by author and year, see docs/references.md)"

# 4. "docs/design.md, rule N" must name a rule that docs/design.md defines ("### Rule N:").
if [[ -f docs/design.md ]]; then
  defined=$(grep -o -E '^### Rule [0-9]+' docs/design.md | grep -o -E '[0-9]+$' | sort -u | tr '\n' ' ')
  while IFS= read -r hit; do
    refs=$(grep -o -E 'design\.md, rules? [0-9]+([-–][0-9]+| and [0-9]+)?' <<<"$hit" | grep -o -E '[0-9]+')
    for n in $refs; do
      [[ " $defined " == *" $n "* ]] || report "docs/design.md has no rule $n" <<<"$hit"
    done
  done < <(search -E -e 'design\.md, rules? [0-9]')
fi

# 5. Relative Markdown links resolve (anchors are not checked).
for md in "${files[@]}"; do
  [[ $md == *.md ]] || continue
  dir=$(dirname "$md")
  while IFS= read -r target; do
    path=${target%%#*}
    [[ -z $path || $path == *://* || $path == mailto:* ]] && continue
    [[ -e $dir/$path ]] || report "broken link" <<<"$md: ($target)"
  done < <(grep -o -E '\]\([^) ]+\)' "$md" | sed -E 's/^\]\((.*)\)$/\1/')
done

if [[ -s $findings ]]; then
  cat "$findings"
  echo "self-contained: $(wc -l <"$findings") finding(s) in ${#files[@]} files"
  exit 1
fi
echo "self-contained: ok (${#files[@]} files)"
