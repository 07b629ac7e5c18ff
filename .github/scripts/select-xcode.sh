#!/usr/bin/env bash
# Selects an Xcode installed on a GitHub-hosted macOS runner and prints its Swift.
#   select-xcode.sh newest   the newest /Applications/Xcode_26*.app; fails unless its
#                            Swift is 6.3 or later (what the Apple suite needs to run
#                            Swift Testing warnings as warnings)
#   select-xcode.sh 26.0     the oldest Xcode 26.0.x installed (the toolchain floor)
# The runner images install Xcodes as /Applications/Xcode_<version>.app
# (https://github.com/actions/runner-images, macos-26 image readme).
set -euo pipefail
want=${1:?newest or a version prefix such as 26.0}
# Released Xcodes only: the images also hold betas and release candidates
# (Xcode_26.x_beta*.app, Xcode_26.x_Release_Candidate*.app).
released() { grep -Evi 'beta|release_candidate|_rc' || true; }
if [ "$want" = newest ]; then
    app=$( (ls -d /Applications/Xcode_26*.app 2>/dev/null || true) | released | sort -V | tail -n 1)
else
    app=$( (ls -d /Applications/Xcode_"$want"*.app 2>/dev/null || true) | released | sort -V | head -n 1)
fi
[ -n "$app" ] || { echo "no Xcode matching $want in /Applications" >&2; ls -d /Applications/Xcode* >&2; exit 1; }
sudo xcode-select -s "$app/Contents/Developer"
xcodebuild -version
swift --version
if [ "$want" = newest ]; then
    version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
    case "$version" in
        6.[3-9]*|[7-9].*) ;;
        *) echo "the newest Xcode here has Swift $version; the macOS job needs 6.3 or later" >&2; exit 1 ;;
    esac
fi
