package workside

import (
	"context"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/ui/wire"
)

// The worker's side of the panic net: engine.Evaluate nets a panic into a
// Result holding one internal.error finding, and what the worker does with
// a result — Slim it, page its findings, export them — works on it, so the
// page lists the finding as any other.
func TestInternalErrorResult(t *testing.T) {
	old := dataset.TestHookRead
	dataset.TestHookRead = func(name string) { panic("injected for the test") }
	t.Cleanup(func() { dataset.TestHookRead = old })
	b := []byte(`{"run":"r","item_id":"q"}` + "\n")
	res, err := engine.Evaluate(context.Background(), []dataset.Input{{Name: "x.jsonl", R: strings.NewReader(string(b)), Size: int64(len(b))}}, engine.DefaultOptions(), nil)
	if _, ok := engine.AsInternal(err); !ok || res == nil {
		t.Fatalf("Evaluate: %v, result %v", err, res)
	}
	slim, _ := Slim(res)
	if len(slim.Inputs) != 1 || slim.Counts.Error != 1 {
		t.Errorf("slim result %+v", slim)
	}
	page := wire.FindingsPage(res.Findings, wire.FindingQuery{})
	if len(page.Findings) != 1 || page.Findings[0].Code != "internal.error" || page.Findings[0].Path != "x.jsonl" {
		t.Errorf("findings page %+v", page)
	}
	if _, _, data, err := Export(res, wire.ExportRequest{What: "findings", Format: "csv"}); err != nil || !strings.Contains(string(data), "internal.error") {
		t.Errorf("export: %v %s", err, data)
	}
}
