package dataset

import (
	"reflect"
	"testing"
)

// A checked record keeps its compact value: the generic tree pruned to what
// rules look up (shared between records of one shape), repeated strings and
// small maps stored once.
func TestCompactRecords(t *testing.T) {
	body := `{"id":"q1","type":"freeform","inputs":{"text":"a?"},"answer":"x","meta":{"split":"dev","source":"s"}}
{"id":"q2","type":"freeform","inputs":{"text":"b?"},"answer":"y","meta":{"source":"s","split":"dev"}}
`
	ds := load(t, memInput("items.jsonl", []byte(body)))
	if len(ds.Items) != 2 || !ds.Items[0].Typed || !ds.Items[1].Typed {
		t.Fatalf("items %+v", ds.Items)
	}
	a, b := ds.Items[0], ds.Items[1]
	want := map[string]any{"id": nil, "inputs": map[string]any{"text": nil}}
	if !reflect.DeepEqual(a.Raw, want) {
		t.Errorf("pruned Raw %#v, want %#v", a.Raw, want)
	}
	if reflect.ValueOf(a.Raw).Pointer() != reflect.ValueOf(b.Raw).Pointer() {
		t.Error("the pruned trees of two items of one shape are not shared")
	}
	if reflect.ValueOf(a.V.Meta).Pointer() != reflect.ValueOf(b.V.Meta).Pointer() {
		t.Error("equal meta maps (keys in another order) are not shared")
	}
	if a.V.Inputs.Text != "a?" || b.V.ID != "q2" {
		t.Errorf("typed values changed: %+v %+v", a.V, b.V)
	}
	// a record that was not typed keeps its whole tree for the rules
	bad := load(t, memInput("items.jsonl", []byte(`{"id":"q3","type":"freeform","inputs":{"text":7},"answer":"x"}`+"\n")))
	if len(bad.Items) != 1 || bad.Items[0].Typed {
		t.Fatalf("want one untyped item, got %+v", bad.Items)
	}
	if m, _ := bad.Items[0].Raw.(map[string]any); m["answer"] != "x" {
		t.Errorf("untyped Raw pruned: %#v", bad.Items[0].Raw)
	}
}
