package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/report"
)

// Validate and Evaluate stream plain TREC inputs (one qrels file, run
// files). The independent source of every expected byte below is the
// in-memory path of the same product (dataset.Load, validate.Run,
// itemscore.Score: Options.noStream), run on the same files; plus one
// small case whose findings and counts are written by hand.

func fileInputs(t *testing.T, paths ...string) []dataset.Input {
	return fileInputsIn(t, false, paths...)
}

func fileInputsIn(t *testing.T, inFolder bool, paths ...string) []dataset.Input {
	t.Helper()
	var in []dataset.Input
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, dataset.Input{Name: p, R: bytes.NewReader(b), Size: int64(len(b)), InFolder: inFolder})
	}
	return in
}

// assertStreamSame checks that both paths give the same validation
// (inputs, findings) and the same Result: its JSON and the results bundle
// byte for byte (findings, overview, score, compare, many, audit).
func assertStreamSame(t *testing.T, opt Options, paths ...string) {
	t.Helper()
	assertStreamSameIn(t, opt, false, paths...)
}

func assertStreamSameIn(t *testing.T, opt Options, inFolder bool, paths ...string) {
	t.Helper()
	ctx := context.Background()
	in := fileInputsIn(t, inFolder, paths...)
	if !StreamsTREC(in, opt.Load.Limits) {
		t.Fatalf("%v: not streamed", paths)
	}
	mem := opt
	mem.noStream = true
	got, err := Validate(ctx, in, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.stream == nil {
		t.Fatalf("%v: Validate took the in-memory path", paths)
	}
	want, err := Validate(ctx, in, mem, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Inputs, want.Inputs) {
		t.Errorf("inputs differ:\nstream %+v\nload   %+v", got.Inputs, want.Inputs)
	}
	if !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Errorf("findings differ (%d stream, %d load):\nstream %v\nload   %v", len(got.Findings), len(want.Findings), got.Findings, want.Findings)
	}
	var zips [2][]byte
	var docs [2][]byte
	for i, o := range []Options{opt, mem} {
		res, err := Evaluate(ctx, in, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if docs[i], err = json.Marshal(res); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteResultsZip(&b, res); err != nil {
			t.Fatal(err)
		}
		zips[i] = b.Bytes()
	}
	if !bytes.Equal(docs[0], docs[1]) {
		i := diffAt(docs[0], docs[1])
		t.Errorf("Result JSON differs at byte %d:\nstream …%s…\nload   …%s…", i, around(docs[0], i), around(docs[1], i))
	}
	if !bytes.Equal(zips[0], zips[1]) {
		t.Errorf("results bundles differ (%d / %d bytes)", len(zips[0]), len(zips[1]))
	}
}

func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(b []byte, i int) string { return string(b[max(0, i-150):min(len(b), i+150)]) }

func TestStreamValidateReferenceCases(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join("..", "trec", "testdata", "reference", "*", "qrels"))
	if len(cases) == 0 {
		t.Fatal("no reference case under app/trec/testdata/reference")
	}
	for _, q := range cases {
		d := filepath.Dir(q)
		t.Run(filepath.Base(d), func(t *testing.T) {
			assertStreamSame(t, DefaultOptions(), q, filepath.Join(d, "run"))
		})
	}
}

// writeRandomTREC writes a qrels file and two runs with what the two paths
// must agree on: repeated judgments (same and different grades), repeated
// docnos in a run (also for a query the qrels do not judge), run-only
// queries, malformed, NaN, over-long and non-UTF-8 lines, comments, CRLF,
// and runs long enough to span several 1 MiB blocks of the streaming reader.
func writeRandomTREC(t *testing.T, dir string, seed uint64, nq, nd int) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	var qb strings.Builder
	for q := range nq {
		for d := range 8 + r.IntN(12) {
			fmt.Fprintf(&qb, "q%d 0 d%d %d\n", q, r.IntN(nd)+d%3, r.IntN(4)-1)
		}
	}
	qb.WriteString("q1 0 dx\n")
	paths := []string{filepath.Join(dir, "qrels")}
	os.WriteFile(paths[0], []byte(qb.String()), 0o644)
	for k, tag := range []string{"one", "two"} {
		var rb strings.Builder
		rb.WriteString("# run " + tag + "\n")
		for q := -1; q < nq; q++ {
			qid := fmt.Sprintf("q%d", q)
			if q < 0 {
				qid = "only"
			}
			for d := range nd {
				doc := fmt.Sprintf("d%d", r.IntN(nd*2))
				score := fmt.Sprintf("%.2f", float64(nd-d)/float64(nd))
				switch r.IntN(500) {
				case 0:
					fmt.Fprintf(&rb, "%s Q0 %s %d\n", qid, doc, d)
				case 1:
					fmt.Fprintf(&rb, "%s Q0 %s %d NaN %s\n", qid, doc, d, tag)
				case 2:
					fmt.Fprintf(&rb, "%s Q0 d\xfe %d %s %s\n", qid, d, score, tag)
				case 3:
					fmt.Fprintf(&rb, "%s Q0 %s %d %s %s%s\n", qid, doc, d, score, tag, strings.Repeat(" x", 40))
				case 4:
					fmt.Fprintf(&rb, "%s Q0 %s %d %s %s\r\n", qid, doc, d, score, tag)
				default:
					fmt.Fprintf(&rb, "%s Q0 %s %d %s %s\n", qid, doc, d, score, tag)
				}
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("run%d", k))
		os.WriteFile(p, []byte(rb.String()), 0o644)
		paths = append(paths, p)
	}
	return paths
}

func TestStreamValidateRandom(t *testing.T) {
	dir := t.TempDir()
	// 400 queries x 300 docs: ~5 MiB per run, several blocks
	paths := writeRandomTREC(t, dir, 1, 400, 300)
	assertStreamSame(t, DefaultOptions(), paths...)
	// a small line limit (the padded lines are too long) and a small cap of
	// findings per rule and file
	opt := DefaultOptions()
	opt.Load.Limits.MaxLineBytes = 60
	opt.Load.Limits.MaxFindings = 3
	assertStreamSame(t, opt, paths...)
	// one run alone, run before qrels
	assertStreamSame(t, DefaultOptions(), paths[1], paths[0])
	// a seed-003 style folder (eval/qrels.tsv, runs/<id>/run.trec), files
	// given as the folder walk gives them
	exp := filepath.Join(dir, "exp")
	for _, d := range []string{"eval", "runs/bm25"} {
		os.MkdirAll(filepath.Join(exp, d), 0o755)
	}
	for src, dst := range map[string]string{paths[0]: "eval/qrels.tsv", paths[1]: "runs/bm25/run.trec"} {
		b, _ := os.ReadFile(src)
		os.WriteFile(filepath.Join(exp, dst), b, 0o644)
	}
	assertStreamSameIn(t, DefaultOptions(), true, filepath.Join(exp, "eval/qrels.tsv"), filepath.Join(exp, "runs/bm25/run.trec"))
}

// A hand-checked case: a qrels file judging (1, a) twice with two grades
// and (1, b) twice with one, a run listing a twice for query 1 and b twice
// for query 9 (not judged), and a run line whose score is not a number.
func TestStreamValidateByHand(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "qrels")
	r := filepath.Join(dir, "run")
	os.WriteFile(q, []byte("1 0 a 1\n1 0 b 0\n1 0 a 2\n1 0 b 0\n"), 0o644)
	os.WriteFile(r, []byte("1 Q0 a 1 0.9 t\n1 Q0 c 2 0.8 t\n1 Q0 a 3 0.7 t\n9 Q0 b 1 0.5 t\n9 Q0 b 2 x t\n9 Q0 b 3 0.4 t\n"), 0o644)
	in := fileInputs(t, q, r)
	v, err := Validate(context.Background(), in, DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.stream == nil {
		t.Fatal("not streamed")
	}
	want := []string{
		q + ":3: error trec.qrels-duplicate: docno \"a\" of query \"1\" is judged again with a different grade (2 here, 1 at line 1)",
		q + ":4: error trec.qrels-duplicate: docno \"b\" of query \"1\" is judged twice (first at line 2)",
		r + ":3: error trec.run-duplicate-docno: docno \"a\" is listed twice for query \"1\" (first at line 1)",
		r + ":5: error trec.syntax: run line 5: score \"x\" is not a number",
		r + ":6: error trec.run-duplicate-docno: docno \"b\" is listed twice for query \"9\" (first at line 4)",
	}
	var got []string
	for _, f := range v.Findings {
		got = append(got, f.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v.Inputs[0].Lines != 4 || v.Inputs[1].Lines != 6 {
		t.Errorf("lines %d, %d; want 4, 6", v.Inputs[0].Lines, v.Inputs[1].Lines)
	}
	res, err := Evaluate(context.Background(), in, DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// records: 4 judgments (repeated ones too), 5 run lines (line 5 is bad)
	if n := recordsRow(res.Overview, "trec.qrels"); n != 4 {
		t.Errorf("overview: %d qrels records, want 4", n)
	}
	if n := recordsRow(res.Overview, "trec.run"); n != 5 {
		t.Errorf("overview: %d run records, want 5", n)
	}
	if res.Counts != (finding.Counts{Error: 5}) {
		t.Errorf("counts %+v, want 5 errors", res.Counts)
	}
}

func recordsRow(r *report.Report, format string) int {
	for _, s := range r.Sections {
		for _, tb := range s.Tables {
			if tb.ID != "records" {
				continue
			}
			for _, row := range tb.Rows {
				if row[0].Text == format && row[1].Value != nil {
					return int(*row[1].Value)
				}
			}
		}
	}
	return -1
}

// The worker's progress sees the bytes read on the streaming path.
func TestStreamProgress(t *testing.T) {
	dir := t.TempDir()
	paths := writeRandomTREC(t, dir, 2, 50, 100)
	in := fileInputs(t, paths...)
	var total int64
	for _, i := range in {
		total += i.Size
	}
	var last dataset.Progress
	stages := map[string]bool{}
	if _, err := Evaluate(context.Background(), in, DefaultOptions(), func(p dataset.Progress) {
		stages[p.Stage] = true
		if p.Stage == "read" {
			last = p
		}
	}); err != nil {
		t.Fatal(err)
	}
	if last.Done != total || last.Total != total {
		t.Errorf("last read progress %+v, want %d of %d", last, total, total)
	}
	for _, s := range []string{"read", "validate", "score", "audit"} {
		if !stages[s] {
			t.Errorf("no %q stage", s)
		}
	}
}

// The panic net holds on the streaming path: a panic while reading the
// qrels (on the caller's goroutine) or a run (on the reader goroutine of
// the stream) is one internal.error finding naming that file.
func TestPanicNetStreamedTREC(t *testing.T) {
	dir := t.TempDir()
	paths := writeRandomTREC(t, dir, 3, 20, 30)
	for _, target := range []string{paths[0], paths[2]} {
		old := dataset.TestHookRead
		dataset.TestHookRead = func(name string) {
			if name == target {
				panic("injected for the test")
			}
		}
		in := fileInputs(t, paths...)
		_, verr := Validate(context.Background(), in, DefaultOptions(), nil)
		res, eerr := Evaluate(context.Background(), in, DefaultOptions(), nil)
		dataset.TestHookRead = old
		for _, err := range []error{verr, eerr} {
			ie, ok := AsInternal(err)
			if !ok {
				t.Fatalf("%s: err = %v, want an *InternalError", target, err)
			}
			if f := ie.Finding; f.Code != "internal.error" || f.Path != target || !strings.Contains(f.Message, "injected for the test") {
				t.Errorf("%s: finding %+v", target, f)
			}
		}
		if res == nil || len(res.Findings) != 1 {
			t.Errorf("%s: Evaluate's result %+v", target, res)
		}
	}
}
