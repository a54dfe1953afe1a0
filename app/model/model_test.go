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
