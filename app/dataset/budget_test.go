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

// EstimateStreamedTREC: the fixed cost and, per qrels byte, the units'
// figure plus one per run, all times the page factor; the runs' own bytes
// count nothing.
func TestEstimateStreamedTREC(t *testing.T) {
	in := []Input{
		{Name: "run-a", Size: 500_000_000},
		{Name: "qrels", Size: 1000},
		{Name: "run-b", Size: 7},
	}
	e := EstimateStreamedTREC(in, "qrels")
	// by hand: fixed 64 MiB × 1.5 = 100,663,296; qrels 1000 bytes ×
	// (12 + 49 × 2 runs) × 1.5 = 1000 × 165 = 165,000; runs 0
	if want := int64(100_663_296 + 165_000); e.Bytes != want {
		t.Errorf("estimate %d bytes, want %d; parts %+v", e.Bytes, want, e.Parts)
	}
	if !e.Streamed || len(e.Parts) != 3 || e.Parts[0].Path != "qrels" || e.Parts[0].PerByte != 165 {
		t.Errorf("parts %+v (streamed %v), want the qrels first at 165 per byte", e.Parts, e.Streamed)
	}
	for _, p := range e.Parts[1:] {
		if p.Bytes() != 0 || p.Format != model.FormatTRECRun {
			t.Errorf("run part %+v counts", p)
		}
	}
	// the 1 GB pair: gen-trec-bench -queries 30000 writes a
	// 27,944,700-byte qrels (1.5M judgments) and a 1,035,684,000-byte run:
	// 100,663,296 + 27,944,700 × (12 + 49) × 1.5 = 100,663,296 +
	// 2,556,940,050 = 2,657,603,346 (with PageOverhead's 335,544,320:
	// 2,993,147,666, under the page's 3 GiB = 3,221,225,472)
	big := EstimateStreamedTREC([]Input{{Name: "qrels", Size: 27_944_700}, {Name: "run", Size: 1_035_684_000}}, "qrels")
	if want := int64(2_657_603_346); big.Bytes != want {
		t.Errorf("1 GB pair: %d, want %d", big.Bytes, want)
	}
}
