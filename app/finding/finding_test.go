package finding

import (
	"encoding/json"
	"testing"
)

func TestNormalizeSortsAndDedups(t *testing.T) {
	l := List{
		{Severity: Warning, Code: "b", Path: "x.jsonl", Line: 3, Message: "m"},
		{Severity: Error, Code: "a", Path: "x.jsonl", Line: 3, Message: "m"},
		{Severity: Error, Code: "a", Path: "a.jsonl", Line: 9, Message: "m"},
		{Severity: Error, Code: "a", Path: "x.jsonl", Line: 3, Message: "m"}, // exact duplicate of #2
		{Severity: Info, Code: "c", Path: "x.jsonl", Line: 1, Message: "m"},
	}
	got := l.Normalize()
	// Expected order by (path, line, severity, code): a.jsonl:9, x:1 info, x:3 error a, x:3 warning b.
	want := []string{"a.jsonl:9:a", "x.jsonl:1:c", "x.jsonl:3:a", "x.jsonl:3:b"}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, f := range got {
		if s := f.Path + ":" + itoa(f.Line) + ":" + f.Code; s != want[i] {
			t.Errorf("#%d = %s, want %s", i, s, want[i])
		}
	}
	c := got.Counts()
	if c != (Counts{Error: 2, Warning: 1, Info: 1}) {
		t.Errorf("counts = %+v", c)
	}
	pc := got.PerCode()
	if len(pc) != 3 || pc[0].Code != "a" || pc[0].Count != 2 || pc[2].Code != "c" {
		t.Errorf("per code = %+v", pc)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSeverityJSON(t *testing.T) {
	b, err := json.Marshal(Finding{Severity: Warning, Code: "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"severity":"warning","code":"x","path":"","line":0,"pointer":"","message":"","hint":""}`
	if string(b) != want {
		t.Fatalf("json = %s\nwant   %s", b, want)
	}
	var f Finding
	if err := json.Unmarshal(b, &f); err != nil || f.Severity != Warning {
		t.Fatalf("round trip: %v %+v", err, f)
	}
	if err := json.Unmarshal([]byte(`{"severity":"fatal"}`), &f); err == nil {
		t.Fatal("unknown severity accepted")
	}
}

func TestRegistry(t *testing.T) {
	r := Register(Rule{Code: "test.registry-rule", Severity: Warning, Description: "d", Hint: "h", Family: "test"})
	f := r.At("p", 4, "/a", "bad %d", 7)
	if f.Severity != Warning || f.Code != "test.registry-rule" || f.Message != "bad 7" || f.Hint != "h" || f.Line != 4 || f.Pointer != "/a" {
		t.Fatalf("finding = %+v", f)
	}
	if got, ok := Lookup("test.registry-rule"); !ok || got.Description != "d" {
		t.Fatal("lookup failed")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("duplicate code did not panic")
		}
	}()
	Register(Rule{Code: "test.registry-rule"})
}
