package dataset

import (
	"archive/zip"
	"bytes"
	"context"
	"strings"
	"testing"

	"eval752/app/model"
)

// EstimateInputs applies the budget per byte to each file's size: a plain
// JSONL file by its detected format, a TREC run by the TREC figure, a
// bundle's entries by their names (assets count nothing).
func TestEstimateInputs(t *testing.T) {
	items := strings.Repeat(`{"id":"q1","type":"freeform","inputs":{"text":"x"},"answer":"y"}`+"\n", 100)
	run := strings.Repeat("q1 Q0 d1 1 1.5 tag\n", 100)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, body := range map[string]string{"sections/a.jsonl": items, "assets/p.png": strings.Repeat("x", 5000), "run.trec": run} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	in := []Input{
		{Name: "items.jsonl", R: strings.NewReader(items), Size: int64(len(items))},
		{Name: "run", R: strings.NewReader(run), Size: int64(len(run))},
		{Name: "b.eval752.zip", R: bytes.NewReader(zb.Bytes()), Size: int64(zb.Len())},
	}
	e, err := EstimateInputs(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// by hand: items and the zip's section at budgetRecords per byte, the
	// two runs at budgetTREC, the asset at 0
	want := int64(float64(len(items))*budgetRecords)*2 + int64(float64(len(run))*budgetTREC)*2
	if e.Bytes != want {
		t.Errorf("estimate %d bytes, want %d; parts %+v", e.Bytes, want, e.Parts)
	}
	if len(e.Parts) != 4 {
		t.Errorf("parts %+v, want 4 (the asset left out)", e.Parts)
	}
	for _, p := range e.Parts {
		if p.Path == "run" && p.Format != model.FormatTRECRun {
			t.Errorf("run detected as %q", p.Format)
		}
		if p.Path == "items.jsonl" && p.Format != model.FormatItem {
			t.Errorf("items.jsonl detected as %q", p.Format)
		}
	}
	for i := 1; i < len(e.Parts); i++ {
		if e.Parts[i].Bytes() > e.Parts[i-1].Bytes() {
			t.Errorf("parts not largest first: %+v", e.Parts)
		}
	}
}
