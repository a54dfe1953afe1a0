package model

import (
	"encoding/json"
	"testing"
)

// Results may list retrieved atoms as bare ids or as {id, score} objects
// (FORMATS: eval752.result); both must decode to the same ids, in order.
func TestRetrievedForms(t *testing.T) {
	var r Result
	line := `{"run":"a","item_id":"q1","retrieved":["c1",{"id":"c2","score":0.5},{"id":"c3"}]}`
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Retrieved) != 3 || r.Retrieved[0].ID != "c1" || r.Retrieved[1].ID != "c2" || r.Retrieved[2].ID != "c3" {
		t.Fatalf("ids = %+v", r.Retrieved)
	}
	if r.Retrieved[0].Score != nil || r.Retrieved[1].Score == nil || *r.Retrieved[1].Score != 0.5 {
		t.Fatalf("scores = %+v", r.Retrieved)
	}
	if err := json.Unmarshal([]byte(`{"retrieved":[3]}`), &r); err == nil {
		t.Fatal("a number is not a retrieved entry")
	}
}

// An item's checker, criteria, audio and video sit behind pointers (the
// memory budget): they must still read and write as plain fields of the
// item and of its inputs, and an item without them has nil pointers.
func TestItemRareFieldsBehindPointers(t *testing.T) {
	var it Item
	line := `{"id":"c1","type":"code","inputs":{"text":"t","audio":["a.wav"],"video":["v.mp4"]},"answer":"x","checker":{"kind":"python"},"criteria":["c"]}`
	if err := json.Unmarshal([]byte(line), &it); err != nil {
		t.Fatal(err)
	}
	if string(it.CheckerRaw()) != `{"kind":"python"}` || string(it.CriteriaRaw()) != `["c"]` {
		t.Fatalf("checker %s criteria %s", it.CheckerRaw(), it.CriteriaRaw())
	}
	if a, v := it.Inputs.AudioPaths(), it.Inputs.VideoPaths(); len(a) != 1 || a[0] != "a.wav" || len(v) != 1 || v[0] != "v.mp4" {
		t.Fatalf("audio %v video %v", a, v)
	}
	b, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"c1","type":"code","inputs":{"text":"t","audio":["a.wav"],"video":["v.mp4"]},"answer":"x","checker":{"kind":"python"},"criteria":["c"]}`
	if string(b) != want {
		t.Fatalf("re-encoded\n%s\nwant\n%s", b, want)
	}
	var plain Item
	if err := json.Unmarshal([]byte(`{"id":"q1","type":"freeform","inputs":{"text":"t"},"answer":"x"}`), &plain); err != nil {
		t.Fatal(err)
	}
	if plain.ItemGrading != nil || plain.Inputs.ItemAV != nil || plain.CheckerRaw() != nil || plain.Inputs.AudioPaths() != nil {
		t.Fatalf("an item without checker, criteria, audio or video allocated them: %+v", plain)
	}
}
