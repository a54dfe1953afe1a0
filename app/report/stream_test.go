package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"eval752/app/dataset"
)

// encodeWhole is the reference: the whole document through one
// json.Encoder, as WriteJSON wrote it before it streamed.
func encodeWhole(t *testing.T, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The streamed report is byte for byte the whole-document encoding, for
// every shape a report takes: nil and empty slices, omitted fields, a table
// without rows or columns, HTML and non-ASCII text, items.
func TestStreamSameBytes(t *testing.T) {
	v, n := 0.25, 3
	pass := true
	reps := []*Report{
		{Kind: "score"},
		{Kind: "score", Title: "t", Config: []KV{}, Inputs: []dataset.InputInfo{}, Sections: []Section{}},
		{Kind: "audit", Title: "a <b> & \"c\" — 中文", Tool: Tool{Name: "eval752", Version: "dev"},
			Config: []KV{{Key: "seed", Value: "42"}},
			Inputs: []dataset.InputInfo{{Path: "x.jsonl", Format: "eval752.item", SHA256: "ab", Lines: 2, Size: 10}},
			Sections: []Section{
				{ID: "s0", Title: "empty"},
				{ID: "s1", Title: "one", Text: []string{"p <1>"}, Notes: []string{"n&m"}, Tables: []Table{
					{ID: "t0", Title: "no rows"},
					{ID: "t1", Title: "rows", Chart: true, Columns: []Column{{Key: "k", Label: "K", Help: "h"}},
						Rows:  [][]Cell{{{Text: "a"}, {Metric: "ndcg@10", Stratum: "all", Run: "r", Value: &v, N: &n, Denom: &n, CILow: &v, CIHigh: &v, Threshold: "≥ 0.90", Pass: &pass, Flag: "unjudged"}}, {}, nil},
						Notes: []string{"x"}},
				}},
			},
			Items: []ItemDetail{{ID: "q1", Path: "x.jsonl", Line: 1, Format: "eval752.item", Question: "q?"}},
		},
	}
	for i, r := range reps {
		var got bytes.Buffer
		if err := r.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if want := encodeWhole(t, r); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("report %d: streamed\n%s\nwant\n%s", i, got.Bytes(), want)
		}
	}
}
