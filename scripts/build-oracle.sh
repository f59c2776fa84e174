#!/usr/bin/env bash
# Builds the oracle (the reference kube-apiserver and kube-controller-manager, from the Go module
# proxy, see oracle/go.mod) once per machine into a cache folder and prints that folder. It also
# builds the oracle's etcd (oracle/etcd, a current release: Debian's 3.4 lacks the watch progress
# requests kube-apiserver needs for sendInitialEvents) into a folder of its own, see below.
#
#   scripts/build-oracle.sh          # build if missing, print the folder
#   scripts/build-oracle.sh --print  # print the folder if the build is cached, else exit 1
#
# The folder is ${KAPI_ORACLE_CACHE:-$HOME/.cache/kapi-oracle}/<version>/<key>, where <key> hashes
# oracle/go.mod, go.sum and the two main.go files: any change to them means a new build, and
# src/e2e/testing/oracle.ts computes the same key to find the binaries. A cold build takes about
# 10 minutes per binary on 2 cores; it runs under `nice` so that it never starves other work.
#
# etcd goes to ${KAPI_ORACLE_CACHE:-$HOME/.cache/kapi-oracle}/etcd/<version>/<key>/etcd, <key>
# hashing oracle/etcd/go.mod, go.sum and main.go (src/oracle/etcd.ts finds it the same way; without
# it the oracle runs on the etcd of the PATH). About a minute on 2 cores with the modules cached.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mod="$here/oracle"
binaries=(kube-apiserver kube-controller-manager)

version="$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v/ { print $2; exit }' "$mod/go.mod")"
if [[ -z "$version" ]]; then
  echo "build-oracle: no k8s.io/kubernetes requirement in $mod/go.mod" >&2
  exit 1
fi
# Keep in step with KEYED_FILES and oracleBuildLocation in src/e2e/testing/oracle.ts.
key="$(cd "$mod" && cat go.mod go.sum cmd/kube-apiserver/main.go cmd/kube-controller-manager/main.go \
  | sha256sum | cut -c1-16)"
cache="${KAPI_ORACLE_CACHE:-$HOME/.cache/kapi-oracle}"
out="$cache/$version/$key"

etcd_mod="$mod/etcd"
etcd_version="$(awk '$1 == "go.etcd.io/etcd/server/v3" && $2 ~ /^v/ { print $2; exit }
  $1 == "require" && $2 == "go.etcd.io/etcd/server/v3" { print $3; exit }' "$etcd_mod/go.mod")"
# Keep in step with KEYED_FILES and oracleEtcdLocation in src/oracle/etcd.ts.
etcd_key="$(cd "$etcd_mod" && cat go.mod go.sum main.go | sha256sum | cut -c1-16)"
etcd_out="$cache/etcd/$etcd_version/$etcd_key"

cached() {
  local b
  for b in "${binaries[@]}"; do [[ -x "$out/$b" ]] || return 1; done
}

if [[ "${1:-}" == "--print" ]]; then
  cached && { echo "$out"; exit 0; }
  exit 1
fi

if ! command -v go >/dev/null; then
  echo "build-oracle: needs Go (go.mod asks for $(awk '$1 == "go" { print $2 }' "$mod/go.mod"))" >&2
  exit 1
fi

if ! cached; then
  mkdir -p "$out"
  # /version of a release binary reports the release; a plain `go build` would report
  # v0.0.0-master. The date is the module's publication time, from the module proxy.
  minor="${version#v1.}"; minor="${minor%%.*}"
  date="$(cd "$mod" && go list -m -json k8s.io/kubernetes | awk -F'"' '$2 == "Time" { print $4 }')"
  pkg=k8s.io/component-base/version
  ldflags="-X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=${date:-1970-01-01T00:00:00Z}"
  for b in "${binaries[@]}"; do
    [[ -x "$out/$b" ]] && continue
    echo "build-oracle: building $b $version (this takes minutes)" >&2
    start=$SECONDS
    # Build to a temporary name and rename, so that an interrupted build is never taken as done.
    (cd "$mod" && nice -n 19 go build -ldflags "$ldflags" -o "$out/$b.partial" "./cmd/$b")
    mv "$out/$b.partial" "$out/$b"
    echo "build-oracle: $b built in $((SECONDS - start)) s" >&2
  done
fi
if [[ ! -x "$etcd_out/etcd" ]]; then
  echo "build-oracle: building etcd $etcd_version" >&2
  start=$SECONDS
  mkdir -p "$etcd_out"
  (cd "$etcd_mod" && nice -n 19 go build -o "$etcd_out/etcd.partial" .)
  mv "$etcd_out/etcd.partial" "$etcd_out/etcd"
  echo "build-oracle: etcd built in $((SECONDS - start)) s" >&2
fi
echo "$out"
