package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/model"
	"eval752/app/score"
	"eval752/app/validate"
)

// The streaming path of score/compare on plain TREC files
// (itemscore.ScoreTRECFiles) must give exactly what the in-memory path
// (dataset.Load + itemscore.Score) gives: the independent source of every
// expected byte below is that in-memory path, run on the same files.

// loadPath is the in-memory path: dataset.Load + itemscore.Score.
func loadPath(t *testing.T, paths []string, lim dataset.Limits, runs []string) (*itemscore.Set, []dataset.InputInfo, finding.List) {
	t.Helper()
	inputs, closeAll, err := openInputs(paths, model.FormatUnknown)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	ds, err := dataset.Load(context.Background(), inputs, dataset.Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	opt := itemscore.DefaultOptions()
	opt.Runs = runs
	set, err := itemscore.Score(ds, opt)
	if err != nil {
		t.Fatal(err)
	}
	in := ds.Inputs
	if in == nil {
		in = []dataset.InputInfo{}
	}
	return set, in, ds.Findings
}

// memValidate is the validation of paths on the in-memory path: the loader's
// findings and validate's rules on every loaded record (the rules that read
// TREC lines are validate's; audit's read none).
func memValidate(t *testing.T, paths []string) finding.List {
	t.Helper()
	inputs, closeAll, err := openInputs(paths, model.FormatUnknown)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	ds, err := dataset.Load(context.Background(), inputs, dataset.Options{Limits: dataset.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	return append(append(finding.List{}, ds.Findings...), validate.Run(ds, validate.DefaultOptions())...).Normalize()
}

// trecFiles reports whether the engine streams paths (engine.StreamsTREC)
// and gives them as itemscore.TRECFile readers (the files stay open until
// the test ends).
func trecFiles(t *testing.T, paths []string) ([]itemscore.TRECFile, bool) {
	t.Helper()
	inputs, closeAll, err := openInputs(paths, model.FormatUnknown)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	if !engine.StreamsTREC(inputs, dataset.DefaultLimits()) {
		return nil, false
	}
	var files []itemscore.TRECFile
	for _, in := range inputs {
		q := dataset.InputFormat(in, dataset.DefaultLimits()) == model.FormatTRECQrels
		files = append(files, itemscore.TRECFile{Name: in.Name, R: in.R, Size: in.Size, Qrels: q})
	}
	return files, true
}

// streamPath is the streaming path on the same files.
func streamPath(t *testing.T, paths []string, lim dataset.Limits, runs []string) (*itemscore.TRECStream, error) {
	t.Helper()
	files, ok := trecFiles(t, paths)
	if !ok {
		t.Fatalf("trecFiles(%v): not recognised as one qrels file and TREC runs", paths)
	}
	opt := itemscore.DefaultOptions()
	opt.Runs = runs
	return itemscore.ScoreTRECFiles(context.Background(), files, lim, opt)
}

func reportJSON(t *testing.T, set *itemscore.Set, inputs []dataset.InputInfo, compare bool) []byte {
	t.Helper()
	opt := score.DefaultOptions()
	var buf bytes.Buffer
	if compare {
		rep, err := score.Compare(set, set.Runs[0].Run, set.Runs[1].Run, opt)
		if err != nil {
			t.Fatal(err)
		}
		rep.Inputs = inputs
		if err := rep.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	rep := score.Score(set, opt)
	rep.Inputs = inputs
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// assertSame checks that both paths give the same report JSON (score, and
// compare when there are two runs), inputs and findings.
func assertSame(t *testing.T, paths []string, lim dataset.Limits, runs []string) {
	t.Helper()
	wantSet, wantIn, wantFs := loadPath(t, paths, lim, runs)
	st, err := streamPath(t, paths, lim, runs)
	if err != nil {
		t.Fatalf("ScoreTRECFiles: %v", err)
	}
	if !reflect.DeepEqual(st.Inputs, wantIn) {
		t.Errorf("inputs differ:\nstream %+v\nload   %+v", st.Inputs, wantIn)
	}
	if !reflect.DeepEqual(st.Findings, wantFs) && !(len(st.Findings) == 0 && len(wantFs) == 0) {
		t.Errorf("findings differ:\nstream %v\nload   %v", st.Findings, wantFs)
	}
	for _, cmp := range []bool{false, true} {
		if cmp && len(wantSet.Runs) < 2 {
			continue
		}
		got, want := reportJSON(t, st.Set, st.Inputs, cmp), reportJSON(t, wantSet, wantIn, cmp)
		if !bytes.Equal(got, want) {
			t.Errorf("compare=%v: report JSON differs (stream %d bytes, load %d bytes) at byte %d:\nstream …%s…\nload   …%s…",
				cmp, len(got), len(want), firstDiff(got, want), excerpt(got, firstDiff(got, want)), excerpt(want, firstDiff(got, want)))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func excerpt(b []byte, i int) string {
	return string(b[max(0, i-200):min(len(b), i+200)])
}

// referenceTREC is the trec_eval reference vectors in package trec's
// testdata (app/trec/testdata/reference).
func referenceTREC(t *testing.T) string {
	t.Helper()
	return trecRefDir(t)
}

func TestScoreStreamReferenceCases(t *testing.T) {
	dir := referenceTREC(t)
	cases, _ := filepath.Glob(filepath.Join(dir, "*", "qrels"))
	if len(cases) == 0 {
		t.Fatalf("no reference case under %s", dir)
	}
	for _, q := range cases {
		d := filepath.Dir(q)
		t.Run(filepath.Base(d), func(t *testing.T) {
			assertSame(t, []string{q, filepath.Join(d, "run")}, dataset.DefaultLimits(), nil)
			// run first, qrels second: the inputs keep the order given
			assertSame(t, []string{filepath.Join(d, "run"), q}, dataset.DefaultLimits(), nil)
		})
	}
}

// randomTREC writes a qrels file and runs with everything the readers and
// the scorer must agree on: graded and negative judgments, qrels queries
// missing from a run, run-only qids, tied scores, duplicate docnos, NaN and
// exponent scores, comment, blank, CRLF, malformed and non-ASCII lines, a
// BOM, and runs long enough to span several 1 MiB blocks.
func randomTREC(t *testing.T, dir string, seed uint64, nq, nd int) (qrels string, runs []string) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var qb strings.Builder
	qb.WriteString("\uFEFF")
	for q := range nq {
		qid := fmt.Sprintf("q%d", q*7%nq)
		for d := range 12 + r.IntN(20) {
			g := r.IntN(5) - 1 // -1 … 3
			fmt.Fprintf(&qb, "%s 0 d%d %d\n", qid, r.IntN(nd*2)+d, g)
		}
	}
	qb.WriteString("bad qrels line\n")
	qrels = filepath.Join(dir, "qrels.txt")
	if err := os.WriteFile(qrels, []byte(qb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, tag := range []string{"alpha", "beta"} {
		var rb strings.Builder
		if k == 0 {
			rb.WriteString("\uFEFF")
		}
		if k == 1 {
			rb.WriteString("# a comment line\n\n")
		}
		for q := -2; q < nq; q++ {
			if q >= 0 && r.IntN(10) == 0 {
				continue // missing from this run
			}
			qid := fmt.Sprintf("q%d", q)
			if q < 0 {
				qid = fmt.Sprintf("runonly%d", -q)
			}
			s := 100.0
			for d := range nd {
				if r.IntN(4) > 0 {
					s -= float64(r.IntN(3)) / 4 // ties
				}
				doc := fmt.Sprintf("d%d", r.IntN(nd*2))
				eol := "\n"
				if r.IntN(50) == 0 {
					eol = "\r\n"
				}
				score := fmt.Sprintf("%g", s)
				switch r.IntN(400) {
				case 0:
					score = "NaN"
				case 1:
					score = "1e2"
				case 2:
					score = "x1"
				}
				sep := " "
				if r.IntN(300) == 0 {
					sep = "\t"
				}
				switch r.IntN(700) {
				case 0:
					fmt.Fprintf(&rb, "%s Q0 %s %d%s", qid, doc, d+1, eol) // 4 fields
				case 1:
					fmt.Fprintf(&rb, "%s Q0 %s\u00a0%d %s %s%s", qid, doc, d+1, score, tag, eol) // non-ASCII space: not a separator for Fields? (U+00A0 is)
				case 2:
					fmt.Fprintf(&rb, "%s Q0 d\xff%d %d %s %s%s", qid, d, d+1, score, tag, eol) // invalid UTF-8
				default:
					fmt.Fprintf(&rb, "%s%sQ0%s%s %d %s %s%s", qid, sep, sep, doc, d+1, score, tag, eol)
				}
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("run%d.trec", k))
		if err := os.WriteFile(p, []byte(rb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, p)
	}
	return qrels, runs
}

func TestScoreStreamRandom(t *testing.T) {
	dir := t.TempDir()
	// 300 queries x 400 docs: ~4 MiB per run, several blocks.
	qrels, runs := randomTREC(t, dir, 1, 300, 400)
	paths := append([]string{qrels}, runs...)
	assertSame(t, paths, dataset.DefaultLimits(), nil)
	assertSame(t, paths, dataset.DefaultLimits(), []string{"beta"})
	// A small line limit: over-long lines are reported and skipped alike.
	lim := dataset.DefaultLimits()
	lim.MaxLineBytes = 30
	assertSame(t, paths, lim, nil)
}

func TestScoreStreamOneLongLine(t *testing.T) {
	// A line longer than the 1 MiB block and than the line limit (after
	// enough good lines for the format to be detected).
	dir := t.TempDir()
	qrels := filepath.Join(dir, "qrels")
	run := filepath.Join(dir, "run")
	os.WriteFile(qrels, []byte("1 0 a 1\n1 0 b 0\n2 0 c 2\n"), 0o644)
	long := "1 Q0 a 1 0.5 t" + strings.Repeat(" x", 1<<20) + "\n"
	head := "1 Q0 b 2 0.4 t\n1 Q0 e 3 0.3 t\n1 Q0 f 4 0.2 t\n1 Q0 g 5 0.1 t\n"
	os.WriteFile(run, []byte(head+long+"2 Q0 c 1 0.9 t\n"+long[:len(long)-1]), 0o644)
	lim := dataset.DefaultLimits()
	lim.MaxLineBytes = 1 << 19
	assertSame(t, []string{qrels, run}, lim, nil)
	assertSame(t, []string{qrels, run}, dataset.DefaultLimits(), nil)
}

// An ungrouped run (a qid's lines not contiguous) and two runs with the same
// tag cannot be streamed: ScoreTRECFiles says so and the CLI falls back to
// the in-memory path, so the output is the same either way. A file given
// twice (which dataset.Load reads once) is not streamed at all.
func TestScoreStreamFallback(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "qrels")
	os.WriteFile(qrels, []byte("1 0 a 1\n1 0 b 0\n2 0 c 2\n2 0 d 1\n"), 0o644)
	ungrouped := filepath.Join(dir, "ungrouped")
	os.WriteFile(ungrouped, []byte("1 Q0 a 1 0.5 t\n2 Q0 c 1 0.9 t\n1 Q0 b 2 0.4 t\n"), 0o644)
	grouped := filepath.Join(dir, "grouped")
	os.WriteFile(grouped, []byte("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n2 Q0 d 1 0.9 t\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "b"), 0o755)
	sameTag := filepath.Join(dir, "b", "grouped")
	os.WriteFile(sameTag, []byte("1 Q0 b 1 0.5 t\n2 Q0 c 2 0.4 t\n"), 0o644)
	if _, ok := trecFiles(t, []string{qrels, grouped, grouped}); ok {
		t.Error("a file given twice is streamed")
	}
	for _, paths := range [][]string{{qrels, ungrouped}, {qrels, grouped, sameTag}, {qrels, grouped, grouped}} {
		if paths[1] == paths[len(paths)-1] {
			// given twice: not streamed (checked above)
		} else if _, err := streamPath(t, paths, dataset.DefaultLimits(), nil); !errors.Is(err, itemscore.ErrNotStreamable) {
			t.Errorf("%v: err = %v, want ErrNotStreamable", paths, err)
		}
		set, in, _ := loadPath(t, paths, dataset.DefaultLimits(), nil)
		want := reportJSON(t, set, in, false)
		code, out, errs := runCLI(t, append([]string{"score", "--json"}, paths...)...)
		if code != ExitOK || out != string(want) {
			t.Errorf("%v: CLI exit %d (stderr %s), output equal to the in-memory path: %v", paths, code, errs, out == string(want))
		}
	}
}

// The CLI takes the streaming path on TREC files and prints what the
// in-memory path gives, warning about error findings the same way.
func TestScoreCLIStreamsTREC(t *testing.T) {
	dir := t.TempDir()
	qrels, runs := randomTREC(t, dir, 2, 40, 50)
	paths := append([]string{qrels}, runs...)
	if _, ok := trecFiles(t, paths); !ok {
		t.Fatal("TREC inputs not detected")
	}
	if _, ok := trecFiles(t, append(paths, scoreFiles[0])); ok {
		t.Fatal("a non-TREC input must use the in-memory path")
	}
	if _, ok := trecFiles(t, runs); ok {
		t.Fatal("runs without qrels must use the in-memory path")
	}
	set, in, _ := loadPath(t, paths, dataset.DefaultLimits(), nil)
	fs := memValidate(t, paths)
	code, out, errs := runCLI(t, append([]string{"score", "--json"}, paths...)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := reportJSON(t, set, in, false); out != string(want) {
		t.Errorf("score --json differs from the in-memory path at byte %d", firstDiff([]byte(out), want))
	}
	wantWarn := fmt.Sprintf("%d error finding(s)", fs.Counts().Error)
	if fs.Counts().Error == 0 || !strings.Contains(errs, wantWarn) {
		t.Errorf("stderr %q, want the warning with %q", errs, wantWarn)
	}
	code, out, errs = runCLI(t, append([]string{"compare", "--json", "alpha", "beta"}, paths...)...)
	if code != ExitOK {
		t.Fatalf("compare exit %d: %s", code, errs)
	}
	if want := reportJSON(t, set, in, true); out != string(want) {
		t.Errorf("compare --json differs from the in-memory path at byte %d", firstDiff([]byte(out), want))
	}
}
