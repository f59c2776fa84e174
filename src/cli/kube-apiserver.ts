#!/usr/bin/env node
// The `kube-apiserver` command: kapi under kube-apiserver's name and command line, for tools that
// start kube-apiserver themselves (controller-runtime's envtest finds it in KUBEBUILDER_ASSETS).
// Without --data-dir its files (store, generated certificates, admin kubeconfig) go in --cert-dir.
// Counterpart of cmd/kube-apiserver/apiserver.go.
import { exitWith, runServeCommand } from './serve-command.ts';

exitWith(runServeCommand(process.argv.slice(2), 'kube-apiserver'));
