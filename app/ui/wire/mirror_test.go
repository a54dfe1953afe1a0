//go:build !js

package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/finding"
	"eval752/app/report"
)

// Result and InputInfo mirror engine.Result and dataset.InputInfo so the
// page's WASM does not link the core. Every mirrored field must carry the
// same JSON name and type as its original, or the page silently shows
// nothing for it; this test fails when the two drift apart.
func TestMirrorsEngineResult(t *testing.T) {
	checkMirror(t, reflect.TypeOf(Result{}), reflect.TypeOf(engine.Result{}))
	checkMirror(t, reflect.TypeOf(InputInfo{}), reflect.TypeOf(dataset.InputInfo{}))

	// And a populated result survives the trip through the mirror.
	rep := &report.Report{Kind: "score", Title: "t"}
	src := engine.Result{
		Inputs:   []dataset.InputInfo{{Path: "a.jsonl", Format: "eval752.item", SHA256: "ab", Lines: 3, Size: 9}},
		Findings: finding.List{{Severity: finding.Warning, Code: "c", Path: "a.jsonl", Line: 2}},
		Counts:   finding.Counts{Warning: 1},
		PerCode:  []finding.CodeCount{{Code: "c", Severity: finding.Warning, Count: 1}},
		Score:    rep, Compare: rep, Audit: rep, Overview: rep,
		Runs: []string{"a", "b"},
	}
	b, err := json.Marshal(src)
	if err != nil {
		t.Fatal(err)
	}
	var got Result
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Inputs) != 1 || got.Inputs[0].SHA256 != "ab" || got.Counts.Warning != 1 ||
		len(got.Findings) != 1 || got.Score == nil || len(got.Runs) != 2 {
		t.Fatalf("mirror lost data: %+v", got)
	}
}

func checkMirror(t *testing.T, mirror, orig reflect.Type) {
	t.Helper()
	fields := map[string]reflect.Type{}
	for i := range orig.NumField() {
		f := orig.Field(i)
		fields[jsonName(f)] = f.Type
	}
	for i := range mirror.NumField() {
		f := mirror.Field(i)
		name := jsonName(f)
		ot, ok := fields[name]
		if !ok {
			t.Errorf("%s.%s (json %q) has no counterpart in %s", mirror.Name(), f.Name, name, orig)
			continue
		}
		if f.Type.Kind() != ot.Kind() {
			t.Errorf("%s.%s is a %s, %s's is a %s", mirror.Name(), f.Name, f.Type, orig, ot)
		}
	}
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
