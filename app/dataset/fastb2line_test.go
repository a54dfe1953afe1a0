package dataset

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"eval752/app/model"
)

// loadB2Lines loads data as one b2.jsonl, through the fast path or (fast
// false) the generic one only.
func loadB2Lines(t testing.TB, data string, fast bool) *Dataset {
	t.Helper()
	old := fastB2Enabled
	fastB2Enabled = fast
	defer func() { fastB2Enabled = old }()
	ds, err := Load(context.Background(), []Input{{Name: "b2.jsonl", R: strings.NewReader(data), Size: int64(len(data)), Format: model.FormatB2}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// sameAsGeneric fails when the fast path gives other records or findings
// than the generic path for data; it reports how many lines the fast path
// took (the generic path is the reference: the strict decoder, jsonschema,
// the typed decode and compact.go's pruning).
func sameAsGeneric(t testing.TB, data string) (fast int) {
	t.Helper()
	want := loadB2Lines(t, data, false)
	got := loadB2Lines(t, data, true)
	if !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Fatalf("findings differ for %q:\nfast    %v\ngeneric %v", data, got.Findings, want.Findings)
	}
	if len(got.B2) != len(want.B2) {
		t.Fatalf("%d records, generic %d, for %q", len(got.B2), len(want.B2), data)
	}
	for i := range got.B2 {
		if !reflect.DeepEqual(got.B2[i], want.B2[i]) {
			t.Fatalf("record %d differs for %q:\nfast    %#v\ngeneric %#v", i, data, got.B2[i], want.B2[i])
		}
	}
	w := newB2Scratch()
	for _, line := range strings.Split(data, "\n") {
		if _, _, ok := fastB2Line(w, []byte(line)); ok {
			fast++
		}
	}
	return fast
}

// fastB2Lines are lines of the shape the fast path takes (scripts/gen-sets.go
// and seed 000's spelling) and small changes of them, each either still
// that shape or just outside it.
func fastB2Lines() []string {
	base := `{"answer":"zesaquidor kadortimar","answer_format":"str","as_of":"2026-03-01T00:00:00+00:00","gold":[{"region":{"block":1,"page":1},"source_id":"synth:doc000000.pdf"}],"modality":"pdf","origin":{"dataset":"eval752/synthetic","item":"row:0","license":"CC0-1.0","revision":"0000000"},"query_id":"synth:doc000000.pdf:0","question":"mitiquisa mardortolsa?","scope":{"holder":"owner","scenario":"document-qa","session":null},"split":"dev","unanswerable":false}`
	lines := []string{base}
	for _, r := range [][2]string{
		{`"answer":"zesaquidor kadortimar"`, `"answer":null`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":12.5`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":-0`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":[1, "a" ,2.25]`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":[]`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":[[1]]`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":true`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":{}`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":1e3`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":1234567890123456789`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":01`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":1.`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":"é ü 标准"`},
		{`"answer":"zesaquidor kadortimar"`, `"answer":"a\nb"`},
		{`"answer":"zesaquidor kadortimar"`, "\"answer\":\"a\tb\""},
		{`"answer_format":"str"`, `"answer_format":"STR"`},
		{`"answer_format":"str"`, `"answer_format":"list"`},
		{`"answer_format":"str"`, `"answer_format":5`},
		{`"modality":"pdf"`, `"modality":"video"`},
		{`"modality":"pdf"`, `"modality":"pdf "`},
		{`"modality":"pdf"`, `"modality":null`},
		{`"query_id":"synth:doc000000.pdf:0"`, `"query_id":""`},
		{`"query_id":"synth:doc000000.pdf:0"`, `"query_id":7`},
		{`"query_id":"synth:doc000000.pdf:0",`, ``},
		{`"question":"mitiquisa mardortolsa?"`, `"question":""`},
		{`"holder":"owner"`, `"holder":"   "`},
		{`"holder":"owner"`, `"holder":""`},
		{`"holder":"owner"`, `"holder":" x "`},
		{`"holder":"owner"`, `"holder":"owner","holder":"x"`},
		{`"session":null`, `"session":"s-1"`},
		{`"session":null`, `"session":nul`},
		{`"session":null`, `"session":false`},
		{`,"session":null`, ``},
		{`"scenario":"document-qa"`, `"scenario":1`},
		{`"region":{"block":1,"page":1}`, `"region":{}`},
		{`"region":{"block":1,"page":1}`, `"region":{"page":1,"page":2}`},
		{`"region":{"block":1,"page":1}`, `"region":{"bbox":[0.1,0.2,0.5,0.75]}`},
		{`"region":{"block":1,"page":1}`, `"region":{"bbox":[]}`},
		{`"region":{"block":1,"page":1}`, `"region":{"path":"a/b.go","symbol":"F","ok":true,"n":null}`},
		{`"region":{"block":1,"page":1}`, `"region":{"t_start":1.5,"t_end":-2.25}`},
		{`"region":{"block":1,"page":1}`, `"region":{"page":{"n":1}}`},
		{`"region":{"block":1,"page":1}`, `"region":{"page":1e400}`},
		{`"region":{"block":1,"page":1}`, `"region":{"页":1}`},
		{`"region":{"block":1,"page":1}`, `"region":[1]`},
		{`"region":{"block":1,"page":1}`, `"region":null`},
		{`"region":{"block":1,"page":1},`, ``},
		{`,"source_id":"synth:doc000000.pdf"`, ``},
		{`"source_id":"synth:doc000000.pdf"`, `"source_id":""`},
		{`"source_id":"synth:doc000000.pdf"`, `"source_id":"a","atom_id":"x"`},
		{`"source_id":"synth:doc000000.pdf"`, `"source_id":"a","source_id":"b"`},
		{`"gold":[{"region":{"block":1,"page":1},"source_id":"synth:doc000000.pdf"}]`, `"gold":[]`},
		{`"gold":[{"region":{"block":1,"page":1},"source_id":"synth:doc000000.pdf"}]`, `"gold":{}`},
		{`"gold":[{"region":{"block":1,"page":1},"source_id":"synth:doc000000.pdf"}]`, `"gold":[{"region":{"page":2},"source_id":"a"},{"region":{"page":2},"source_id":"b"}]`},
		{`"gold":[{"region":{"block":1,"page":1},"source_id":"synth:doc000000.pdf"}]`, `"gold":[{"region":{"page":2},"source_id":"a"},]`},
		{`"gold":[{"region":{"block":1,"page":1},"source_id":"synth:doc000000.pdf"}]`, `"gold":[5]`},
		{`"unanswerable":false`, `"unanswerable":true`},
		{`"unanswerable":false`, `"unanswerable":0`},
		{`"unanswerable":false`, `"unanswerable":false,"unanswerable":true`},
		{`"license":"CC0-1.0"`, `"license":"CC0-1.0","extra":1`},
		{`"license":"CC0-1.0"`, `"license":5`},
		{`"item":"row:0"`, `"item":"row:0","item":"row:1"`},
		{`"split":"dev"`, `"split":"dev","extra":1`},
		{`"split":"dev"`, `"split":"dev","Split":"test"`},
		{`"split":"dev"`, `"split":"\u0064ev"`},
		{`"split":"dev"`, `"split":"dev","split":"test"`},
		{`"split":"dev"`, `"split":1`},
		{`{"answer"`, ` { "answer" `},
		{`"unanswerable":false}`, "\"unanswerable\" : false } \t"},
		{`"unanswerable":false}`, `"unanswerable":false}}`},
		{`"unanswerable":false}`, `"unanswerable":false} x`},
		{`"unanswerable":false}`, `"unanswerable":false`},
		{`"unanswerable":false}`, `"unanswerable":false,}`},
		{`"as_of":"2026-03-01T00:00:00+00:00"`, `"as_of":"yesterday"`},
		{`"as_of":"2026-03-01T00:00:00+00:00"`, `"as_of":[]`},
	} {
		if !strings.Contains(base, r[0]) {
			panic("no " + r[0])
		}
		lines = append(lines, strings.Replace(base, r[0], r[1], 1))
	}
	return lines
}

// TestFastB2SameAsGeneric: on every line above, on b2Variants and on a set
// of such lines together, the fast path's records and findings equal the
// generic path's; and it takes the lines it is meant for.
func TestFastB2SameAsGeneric(t *testing.T) {
	lines := append(fastB2Lines(), b2Variants(t)...)
	took := 0
	for _, l := range lines {
		took += sameAsGeneric(t, l)
	}
	t.Logf("took %d of %d", took, len(lines))
	if took < 30 {
		t.Errorf("the fast path took %d of %d lines", took, len(lines))
	}
	if sameAsGeneric(t, fastB2Lines()[0]) != 1 {
		t.Errorf("the fast path refused the generator's line")
	}
	// many lines at once: shared regions, interned strings, blocks of
	// lines on several workers
	var all strings.Builder
	for i := 0; i < 3000; i++ {
		l := lines[i%len(lines)]
		all.WriteString(strings.Replace(l, "doc000000.pdf:0", fmt.Sprintf("doc%06d.pdf:%d", i/3, i), 1))
		all.WriteString("\n")
	}
	sameAsGeneric(t, all.String())
}

// FuzzFastB2Line: for any line, both paths give the same records and
// findings.
func FuzzFastB2Line(f *testing.F) {
	for _, l := range fastB2Lines() {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		sameAsGeneric(t, line)
	})
}
