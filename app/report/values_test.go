package report

import (
	"encoding/json"
	"math"
	"testing"
)

// TestValuesJSON: Values encode exactly as encoding/json encodes the same
// entries held in a map[string]float64 (the reference), and decode back.
func TestValuesJSON(t *testing.T) {
	cases := []map[string]float64{
		nil,
		{},
		{"a": 1},
		{"ndcg@10": 2.0 / 3, "answer.exact": 0, "mrr": 1, "z": -0.5, "b<&>": 3},
		{"tiny": 1e-7, "small": 1.5e-6, "edge": 1e-6, "big": 1e21, "under": 9.99e20, "neg": -2.5e-9, "negzero": math.Copysign(0, -1), "max": math.MaxFloat64},
	}
	for _, m := range cases {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(ValuesOf(m))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("Values JSON %s, map JSON %s", got, want)
		}
		var back Values
		if err := json.Unmarshal(want, &back); err != nil {
			t.Fatal(err)
		}
		if len(back) != len(m) || (m == nil) != (back == nil) {
			t.Errorf("decoded %v from %s", back, want)
		}
		for k, x := range m {
			if y, ok := back.Get(k); !ok || y != x {
				t.Errorf("decoded %s = %v, %v; want %v", k, y, ok, x)
			}
		}
	}
	if _, err := json.Marshal(Values{{"x", math.NaN()}}); err == nil {
		t.Error("NaN encoded without an error")
	}
	// omitempty leaves out an empty Values as it does an empty map
	b, _ := json.Marshal(RunItem{Run: "r", Scores: Values{}})
	if string(b) != `{"run":"r"}` {
		t.Errorf("empty scores: %s", b)
	}
}

// TestValuesEdit: Set keeps names sorted and unique, Delete removes.
func TestValuesEdit(t *testing.T) {
	var v Values
	for _, n := range []string{"c", "a", "b", "a"} {
		v.Set(n, float64(len(n)))
	}
	v.Set("b", 7)
	if len(v) != 3 || v[0].Name != "a" || v[1].Name != "b" || v[2].Name != "c" || v[1].Value != 7 {
		t.Fatalf("after sets: %v", []Named(v))
	}
	v.Delete("a")
	v.Delete("zz")
	if _, ok := v.Get("a"); ok || len(v) != 2 || !v.Has("c") {
		t.Fatalf("after delete: %v", []Named(v))
	}
	if c := v.Compact(); cap(c) != len(c) || len(c) != 2 {
		t.Errorf("compact: len %d cap %d", len(c), cap(c))
	}
}
