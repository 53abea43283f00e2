#!/usr/bin/env bash
# Commit subjects: at most 72 characters, so that each change reads as one
# line in `git log --oneline`, a shortlog or a mail's subject. Exit 1 listing
# every commit whose subject is longer.
#
#   Tools/lint/commits.sh [REV-RANGE...]
#
# With no argument it checks the commits since the last tag, or with no tag
# the last 50. Never a commit older than the first one under the rule, named
# in Tools/lint/commit-rule-start: the history before it keeps its long
# subjects. On a shallow clone, or when that commit is not in the history,
# it checks what there is, at most 50 commits.
set -uo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C.UTF-8 # count characters, not bytes

limit=72
recent=50

if ! git rev-parse --verify --quiet HEAD >/dev/null; then
  echo "commits: no commit to check"
  exit 0
fi

cap=()
if [ "$#" -gt 0 ]; then
  range=("$@")
elif tag="$(git describe --tags --abbrev=0 2>/dev/null)"; then
  range=("$tag..HEAD")
else
  range=(HEAD)
  cap=("--max-count=$recent")
fi

# The commits before the first one under the rule are left out: everything
# its parents reach. A start missing from the history (a shallow clone, a
# copy made from elsewhere) leaves nothing out but bounds the count instead.
older=()
start="$(tr -d '[:space:]' <Tools/lint/commit-rule-start 2>/dev/null || true)"
if [ -n "$start" ] && git cat-file -e "$start^{commit}" 2>/dev/null; then
  while read -r parent; do
    [ -n "$parent" ] && older+=("^$parent")
  done < <(git rev-parse "$start^@" 2>/dev/null || true)
else
  cap=("--max-count=$recent")
fi

if ! listing="$(git log --format='%h%x09%s' ${cap[@]+"${cap[@]}"} "${range[@]}" ${older[@]+"${older[@]}"} -- 2>&1)"; then
  echo "commits: cannot list the commits of ${range[*]}: $listing" >&2
  exit 2
fi

checked=0
long=()
while IFS=$'\t' read -r hash subject; do
  [ -n "$hash" ] || continue
  checked=$((checked + 1))
  if [ "${#subject}" -gt "$limit" ]; then
    long+=("$hash (${#subject} characters) $subject")
  fi
done <<<"$listing"

if [ "${#long[@]}" -gt 0 ]; then
  echo "commits: ${#long[@]} of $checked subjects over $limit characters; say the one change in $limit, the details in the body:"
  printf '  %s\n' "${long[@]}"
  exit 1
fi
echo "commits: $checked subjects, none over $limit characters"
