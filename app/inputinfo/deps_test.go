package inputinfo

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The page's WASM (wasm/app) links neither the loader nor the JSON Schema
// compiler: they are the worker's (issue 10, page weight).
func TestPageWASMLinksNoLoader(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "../../wasm/app")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"eval752/app/dataset", "eval752/app/formats", "eval752/app/engine", "jsonschema"} {
			if strings.Contains(dep, banned) {
				t.Errorf("wasm/app depends on %s", dep)
			}
		}
	}
}
