// Package clientgo drives the server named by $KUBECONFIG with client-go: typed clients in JSON
// and protobuf, the dynamic client on a CRD, shared informers, server-side apply and watch-list.
// It has tests only.
package clientgo
