#!/usr/bin/env bash
# What each patch in patches/ still buys (docs/upgrading.md 'Does each patch still pay?'): a copy of this tree at HEAD
# (a git worktree, node_modules hard-linked but for the patched packages, the same build), one patch group reversed
# in it at a time, A/B against this tree with bench/ab.ts (server CPU per request on the sign-in page, the FAQ and the
# list page), then an A/A run with nothing reversed to show the noise. About 20 minutes; needs a PostgreSQL server
# (AB_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test) and `npm run build` first.
#   bash bench/ab-patches.sh            AB_ROUNDS and AB_SECONDS as for bench/ab.ts (defaults here: 4 and 4)
set -euo pipefail
cd "$(dirname "$0")/.."
copy=tests/.tmp/ab-patches
trap 'git worktree remove --force "$copy" 2>/dev/null || true' EXIT
rm -rf "$copy" && git worktree prune
git worktree add -q --detach "$copy" HEAD
cp -al node_modules "$copy/node_modules"
cp -a build "$copy/build" && cp -a public/build "$copy/public/build"

# patches/<scope>+<name>+<version>.patch -> node_modules/<scope>/<name>: real copies, so reversing leaves ours alone.
for file in patches/*.patch; do
  name=$(basename "$file" .patch) && name=${name%+*} && name=${name//+//}
  rm -rf "$copy/node_modules/$name" && cp -a "node_modules/$name" "$copy/node_modules/$name"
done

# The three routing patches only pay together (the router's caches hit when the other two reuse route arrays).
groups=("$(cd patches && echo @remix-run+router+*.patch react-router-dom+*.patch @remix-run+react+*.patch)")
for file in patches/*.patch; do
  case $(basename "$file") in @remix-run+router+* | react-router-dom+* | @remix-run+react+*) ;; *) groups+=("$(basename "$file")") ;; esac
done

export AB_ROUNDS=${AB_ROUNDS:-4} AB_SECONDS=${AB_SECONDS:-4}
for group in "${groups[@]}" ""; do
  echo "=== reversed: ${group:-nothing (A/A)}  $(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
  for patch in $group; do (cd "$copy" && patch -R -p1 -s < "patches/$patch"); done
  npx tsx bench/ab.ts "$copy" 2>/dev/null | tail -n +2
  for patch in $group; do (cd "$copy" && patch -p1 -s < "patches/$patch"); done
done
