// Command openapi-definitions prints, as one JSON object, the OpenAPI definitions kube-apiserver
// v1.36 builds its documents from (k8s.io/kubernetes/pkg/generated/openapi), keyed by their
// published names ("io.k8s.api.core.v1.Pod"): for each, "v3" (the schema of /openapi/v3) and,
// where the v2 document uses another one, "v2". scripts/generate-schemas.ts reads it for what the
// reference swagger.json lacks: enum lists and their descriptions, and the defaults of v3.
package main

import (
	"encoding/json"
	"os"
	"strings"

	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// publishedName turns a Go type path ("k8s.io/api/core/v1.Pod") into the definition name kube
// publishes: the domain reversed, slashes as dots. Types with an OpenAPI model name are already
// keyed by it ("io.k8s.api.core.v1.Pod").
func publishedName(goName string) string {
	if !strings.Contains(goName, "/") {
		return goName
	}
	parts := strings.Split(goName, "/")
	if len(parts) > 0 && strings.Contains(parts[0], ".") {
		d := strings.Split(parts[0], ".")
		for i, j := 0, len(d)-1; i < j; i, j = i+1, j-1 {
			d[i], d[j] = d[j], d[i]
		}
		parts[0] = strings.Join(d, ".")
	}
	return strings.Join(parts, ".")
}

type entry struct {
	V3 spec.Schema  `json:"v3"`
	V2 *spec.Schema `json:"v2,omitempty"`
}

func main() {
	defs := generatedopenapi.GetOpenAPIDefinitions(func(name string) spec.Ref {
		return spec.MustCreateRef("#/definitions/" + publishedName(name))
	})
	out := make(map[string]entry, len(defs))
	for name, def := range defs {
		e := entry{V3: def.Schema}
		if v, ok := def.Schema.Extensions[common.ExtensionV2Schema]; ok {
			if v2, isSchema := v.(spec.Schema); isSchema {
				e.V2 = &v2
			}
			ext := spec.Extensions{}
			for k, x := range def.Schema.Extensions {
				if k != common.ExtensionV2Schema {
					ext[k] = x
				}
			}
			e.V3.Extensions = ext
		}
		out[publishedName(name)] = e
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
