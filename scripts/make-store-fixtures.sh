#!/usr/bin/env bash
# Makes the store fixtures of Tests/OfflineEngineTests/Fixtures: for each schema version, a store
# file written by the code of the last commit of that version, and a manifest (JSON) of every
# table's columns and rows as that code wrote them. StoreFixtureMigrationTests opens each with
# today's code. The files are made once and checked in; run this again only to add a version.
#
# For each commit it makes a throwaway worktree, adds scripts/store-fixtures/FixtureGenerator.swift
# there as an executable target (it uses that commit's own `package` store API), builds it, runs
# it and copies the two files. No network: the package has no dependencies.
#
# Version 1 never shipped alone (the first store commit, bcaf0f4, already had version 2, and its
# store API is not the later one): its file is the literal version-1 layout (StoreSchema.version1,
# which never changed) filled with the version-1 columns of the rows the version-2 code wrote;
# that code writes a stored write's bytes as the first store commit did (it adds "expectRows" only
# when set, and none of these writes sets it).
#
# Another run makes the same files but for what those versions' code does not fix: the time
# each write was accepted, the order of accepted ids in one commit, and the order of the stored
# session's JSON keys; the fixtures checked in need not be made again.
#
# A new schema version: add "<version> <last commit of that version>" below (find the commit with
# `git log --format=%h -- Sources/OfflineEngine/Store/StoreSchema.swift`), run this script, and add
# the version to StoreFixtureMigrationTests.versions.
set -euo pipefail
cd "$(dirname "$0")/.."

fixtures=(
    "1 7e0e2a0" # no version-1 commit: see above
    "2 7e0e2a0" # the last commit before version 3 (cb588ac)
    "3 48a7bb6" # the last commit before version 4 (13a2659)
    "4 5e71f25" # the newest commit of version 4 when its fixture was made
    "5 e5cbb0a" # version 5 (counts kept with lists, issue 27): the commit that merged it
    "6 25e00a1" # version 6 (each user's data apart, issue 30): the commit that made it
    "7 6904f80" # version 7 (accepted ids found by their first 8 characters, issue 28): with the generator's init back
)

# The versions whose store keeps each user's lists apart: the generator writes the owner's lists
# to the owner's cache there (`-DLISTS_BY_USER`).
lists_by_user_from=6

destination=Tests/OfflineEngineTests/Fixtures
generator=scripts/store-fixtures/FixtureGenerator.swift

# STORE_FIXTURES_ONLY=<version> makes that version's fixture alone (a new version's).
# STORE_FIXTURES_WORK=<folder> keeps the worktrees and their builds there for another run.
if [ -n "${STORE_FIXTURES_WORK:-}" ]; then
    work=$STORE_FIXTURES_WORK
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/store-fixtures.XXXXXX")
    cleanup() {
        for tree in "$work"/*/; do
            if [ -f "$tree/Package.swift" ]; then git worktree remove --force "$tree"; fi
        done
        rm -rf "$work"
    }
    trap cleanup EXIT
fi

package_addition='
package.targets.append(
    .executableTarget(name: "FixtureGenerator", dependencies: ["OfflineEngine", "CSQLite"]))'

mkdir -p "$destination" "$work/out"
for fixture in "${fixtures[@]}"; do
    read -r version commit <<<"$fixture"
    if [ -n "${STORE_FIXTURES_ONLY:-}" ] && [ "$version" != "$STORE_FIXTURES_ONLY" ]; then continue; fi
    tree="$work/$commit"
    if [ ! -d "$tree" ]; then
        git worktree add --detach "$tree" "$commit" >/dev/null
        mkdir -p "$tree/Sources/FixtureGenerator"
        printf '%s\n' "$package_addition" >>"$tree/Package.swift"
    fi
    echo "== building the generator at $commit"
    cp "$generator" "$tree/Sources/FixtureGenerator/main.swift"
    flags=()
    if [ "$version" -ge "$lists_by_user_from" ]; then flags=(-Xswiftc -DLISTS_BY_USER); fi
    (cd "$tree" && swift build --product FixtureGenerator "${flags[@]}")
    echo "== version $version at $commit"
    rm -f "$work/out/store-v$version".*
    layout=()
    if [ "$version" = 1 ]; then
        # StoreSchema.version1 as the commit has it, its Swift indentation removed.
        git show "$commit:Sources/OfflineEngine/Store/StoreSchema.swift" |
            awk '/static let version1 = """/ { inside = 1; next } inside && /"""/ { exit } inside' |
            sed 's/^        //' >"$work/version1.sql"
        grep -q "CREATE TABLE meta" "$work/version1.sql"
        layout=("$work/version1.sql")
    fi
    "$tree/.build/debug/FixtureGenerator" "$version" "$work/out" "$commit" "${layout[@]}"
    # One file holds the store: no log or shared-memory file may be left beside it.
    if ls "$work/out/store-v$version.sqlite"-* >/dev/null 2>&1; then
        echo "the store of version $version left files beside it" >&2
        exit 1
    fi
    cp "$work/out/store-v$version.sqlite" "$work/out/store-v$version.json" "$destination/"
done
ls -l "$destination"
