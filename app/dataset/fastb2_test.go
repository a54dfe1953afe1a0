package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"eval752/app/jsonl"
	"eval752/app/model"
)

// b2Variants are b-2 lines around the seed example: spellings encoding/json
// reads differently from an exact-key reading (case, non-ASCII keys,
// escaped keys, duplicates), answers of every JSON type with spaces and
// escapes, regions with nested values and numbers float64 cannot hold.
func b2Variants(t testing.TB) []string {
	seed, err := os.ReadFile("testdata/seed/b2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile("testdata/bad_b2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(string(seed))
	lines := strings.Split(strings.TrimSpace(string(bad)), "\n")
	lines = append(lines, base)
	repl := func(old, new string) string { return strings.Replace(base, old, new, 1) }
	for _, r := range [][2]string{
		{`"query_id"`, `"Query_ID"`},
		{`"split": "dev"}`, `"split": "dev", "SPLIT": "test"}`},
		{`"split": "dev"}`, `"split": "dev", "ſplit": "test"}`},
		{`"split": "dev"}`, `"split": "dev", "extra": {"a": [1, 2]}}`},
		{`"split": "dev"}`, `"split": "dev", "é": 1}`},
		{`"answer"`, `"\u0061nswer"`},
		{`"holder"`, `"Holder"`},
		{`"holder": "owner"`, `"holder": "owner", "HOLDER": "x"`},
		{`"license"`, `"License"`},
		{`"source_id"`, `"Source_Id"`},
		{`"region": {"page": 5}`, `"region": {"page": 5}, "REGION": {}`},
		{`"region": {"page": 5}`, `"region": {"page": 1e400}`},
		{`"region": {"page": 5}`, `"region": {"page": 5.5, "block": -0, "x": [1, "a", null, true, {"y": 2e-3}]}`},
		{`"region": {"page": 5}`, `"region": {}`},
		{`"region": {"page": 5}`, `"region": null`},
		{`"region": {"page": 5}`, `"region": [5]`},
		{`"session": null`, `"session": "s1"`},
		{`"session": null`, `"session": 3`},
		{`"answer": "标准答案原文;不可回答时为 null"`, `"answer":   [1, 2.50 ,"a\u00e9\n"]  `},
		{`"answer": "标准答案原文;不可回答时为 null"`, `"answer": null`},
		{`"answer": "标准答案原文;不可回答时为 null"`, `"answer": 12.50e1`},
		{`"answer": "标准答案原文;不可回答时为 null"`, `"answer": {"k": "v"}`},
		{`"answer": "标准答案原文;不可回答时为 null"`, `"answer": "a\"b\\c\ud83d\ude00"`},
		{`"answer": "标准答案原文;不可回答时为 null", `, ``},
		{`"gold": [{"source_id": "mmlongbench:PH_2016.06.08_Economy-Final.pdf", "region": {"page": 5}}]`, `"gold": []`},
		{`"gold": [{"source_id": "mmlongbench:PH_2016.06.08_Economy-Final.pdf", "region": {"page": 5}}]`, `"gold": [{"source_id": "a", "region": {"page": 1}}, {"source_id": "b", "region": {"turn": 2}}]`},
		{`"gold": [{"source_id": "mmlongbench:PH_2016.06.08_Economy-Final.pdf", "region": {"page": 5}}]`, `"gold": [{"source_id": "a", "region": {"page": 1}, "region": {"block": 2}}]`},
		{`"scope": {`, `"scope": {"holder": "first"}, "scope": {`},
		{`"unanswerable": false`, `"unanswerable": "no"`},
		{`"unanswerable": false`, `"unanswerable": true`},
		{`"origin": {`, `"origin": {"x": 1, `},
		{`"split": "dev"`, `"split": null`},
	} {
		lines = append(lines, repl(r[0], r[1]))
	}
	return lines
}

// sameAsUnmarshal fails when b2FromTree accepts line but json.Unmarshal
// reads it differently; it reports whether b2FromTree accepted it.
func sameAsUnmarshal(t testing.TB, line string) bool {
	if !utf8.ValidString(line) {
		return false // jsonl.Lines reports such a line; it is never decoded
	}
	v, problems := jsonl.Decode([]byte(line))
	m, isObj := v.(map[string]any)
	if !isObj || len(problems) > 0 {
		return false // the loader never hands b2FromTree such a line
	}
	got, ok := b2FromTree(m, []byte(line))
	if !ok {
		return false
	}
	var want model.B2
	if err := json.Unmarshal([]byte(line), &want); err != nil {
		t.Fatalf("b2FromTree accepted a line encoding/json rejects (%v): %s", err, line)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("b2FromTree differs from json.Unmarshal on %s:\n got %#v\nwant %#v", line, got, want)
	}
	return true
}

// TestB2FromTreeEqualsUnmarshal: wherever the tree conversion is used, it
// gives exactly what encoding/json gives; it declines the spellings
// encoding/json reads differently.
func TestB2FromTreeEqualsUnmarshal(t *testing.T) {
	accepted, declined := 0, 0
	for _, line := range b2Variants(t) {
		if sameAsUnmarshal(t, line) {
			accepted++
		} else {
			declined++
		}
	}
	// the seed line, and the variants with an extra key, an escaped key,
	// another session, answer, gold or region, are accepted; the case and
	// non-ASCII spellings, 1e400, wrong types are declined
	if accepted < 15 || declined < 10 {
		t.Errorf("accepted %d, declined %d", accepted, declined)
	}
	for _, decline := range []string{`"Query_ID"`, `"ſplit"`, `"SPLIT"`, `"Holder"`, `1e400`, `"é"`} {
		for _, line := range b2Variants(t) {
			if strings.Contains(line, decline) {
				m, _ := jsonl.Decode([]byte(line))
				if _, ok := b2FromTree(m.(map[string]any), []byte(line)); ok {
					t.Errorf("b2FromTree accepted %s", line)
				}
			}
		}
	}
}

// FuzzB2FromTree: on any line, b2FromTree either declines or equals
// json.Unmarshal (go test -fuzz FuzzB2FromTree ./app/dataset/).
func FuzzB2FromTree(f *testing.F) {
	for _, line := range b2Variants(f) {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsUnmarshal(t, string(b))
	})
}

func TestMemberValue(t *testing.T) {
	for _, c := range []struct{ in, key, want string }{
		{`{"a": 1, "answer" :  [1, {"x": "]"}] , "b": 2}`, "answer", `[1, {"x": "]"}]`},
		{`{"answer": "x\"}", "z": 1}`, "answer", `"x\"}"`},
		{`{"answer": null}`, "answer", `null`},
		{`{"answer": 1.5e3}`, "answer", `1.5e3`},
		{`{"answer": 1, "answer": true}`, "answer", `true`},
		{`{"\u0061nswer": "e"}`, "answer", `"e"`},
		{`{"an\/swer": "e"}`, "an/swer", `"e"`},
		{`{"answers": 1}`, "answer", ``},
		{` { "nested": {"answer": 1}, "answer":false } `, "answer", `false`},
	} {
		got, ok := jsonl.MemberValue([]byte(c.in), c.key)
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("MemberValue(%s, %q) = %q, %v; want %q", c.in, c.key, got, ok, c.want)
		}
	}
}

// mixedB2 is a b-2 file of n lines with a defect of another kind every few
// lines (syntax, duplicate key, schema, typed decode, invalid UTF-8, blank,
// a line over the cap), so that every block of lines has findings.
func mixedB2(t testing.TB, n int) []byte {
	vs := b2Variants(t)
	r := rand.New(rand.NewPCG(7, 7))
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		line := strings.Replace(vs[r.IntN(len(vs))], `.pdf:`, fmt.Sprintf(".pdf:%d-", i), 1)
		switch r.IntN(40) {
		case 0:
			line = line[:len(line)/2]
		case 1:
			line = "\xff" + line
		case 2:
			line = "   "
		case 3:
			line = `{"pad": "` + strings.Repeat("x", 3000) + `"}`
		case 4:
			line = "[1, 2]"
		}
		b.WriteString(line + "\n")
	}
	return b.Bytes()
}

// TestParallelLinesSameAsSequential: with workers preparing blocks of
// lines, the findings (and their order, which the per-rule cap sees), the
// records and the line count are those of the one-by-one reading.
func TestParallelLinesSameAsSequential(t *testing.T) {
	data := mixedB2(t, 3000)
	run := func(procs int) *Dataset {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		ds, err := Load(context.Background(), []Input{memInput("b2.jsonl", data)}, Options{Limits: Limits{MaxLineBytes: 2048, MaxFindings: 25}})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	seq, par := run(1), run(2)
	if lineWorkers() == 0 {
		t.Log("one core: both runs were sequential")
	}
	if len(seq.Findings) < 50 || len(seq.B2) < 2000 {
		t.Fatalf("the input exercises too little: %d findings, %d records", len(seq.Findings), len(seq.B2))
	}
	if !reflect.DeepEqual(seq.Findings, par.Findings) {
		t.Errorf("findings differ: %d sequential, %d parallel", len(seq.Findings), len(par.Findings))
	}
	if !reflect.DeepEqual(seq.B2, par.B2) || !reflect.DeepEqual(seq.Inputs, par.Inputs) {
		t.Error("records or inputs differ")
	}
}

// TestParallelPanicNamed: a panic while a worker prepares lines, or while
// the loader commits them, reaches the loader's caller as a *ReadPanic
// naming the file (the panic net turns it into internal.error), and no
// goroutine is left behind.
func TestParallelPanicNamed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	data := mixedB2(t, 5000)
	for _, hook := range []*func(string){&TestHookPrepare, &TestHookCommit} {
		before := runtime.NumGoroutine()
		var calls atomic.Int32
		*hook = func(name string) {
			if calls.Add(1) == 3 {
				panic("boom")
			}
		}
		func() {
			defer func() {
				p := recover()
				rp, ok := p.(*ReadPanic)
				if !ok || rp.File != "b2.jsonl" || rp.Value != "boom" {
					t.Errorf("recovered %#v, want a *ReadPanic of b2.jsonl", p)
				}
			}()
			Load(context.Background(), []Input{memInput("b2.jsonl", data)}, Options{})
			t.Error("Load returned")
		}()
		*hook = nil
		for i := 0; i < 100 && runtime.NumGoroutine() > before; i++ {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Errorf("%d goroutines left (before: %d)", n, before)
		}
	}
}
